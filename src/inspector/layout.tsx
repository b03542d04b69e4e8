/** @module The page frame: navigation, the one stylesheet and the two scripts (htmx and inspector.js), nothing inline. */
import type { Child } from "hono/jsx";
import type { Page } from "./context.js";
import { UI_PATH } from "./paths.js";

const NAV: [string, string][] = [
  ["/requests", "Requests"],
  ["/errors", "Errors"],
  ["/customers", "Customers"],
  ["/scenarios", "Scenarios"],
  ["/clock", "Clock"],
  ["/shops", "Shops"],
  ["/coverage", "Coverage"],
];

export function Layout(props: { page: Page; title: string; current: string; children?: Child }) {
  const { page, title, current } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content='{"includeIndicatorCSS":false}' />
        <title>{`${title} · loyalty-sim inspector`}</title>
        <link rel="icon" type="image/svg+xml" href={`${UI_PATH}/assets/favicon.svg`} />
        <link rel="stylesheet" href={`${UI_PATH}/assets/inspector.css`} />
        <script src={`${UI_PATH}/assets/htmx.min.js`} defer></script>
        <script src={`${UI_PATH}/assets/inspector.js`} defer></script>
      </head>
      <body data-shop={page.shop ?? ""}>
        <header>
          <a class="brand" href={page.href("")}>loyalty-sim inspector</a>
          <nav>
            {NAV.map(([path, label]) => (
              <a href={page.href(path)} class={path === current ? "current" : undefined}>
                {label}
              </a>
            ))}
          </nav>
          <span class="shop">shop: {page.shop ?? "default"}</span>
        </header>
        <main>
          <h1>{title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** An error envelope from the control API, shown as it came. */
export function Problem(props: { status: number; message: string; details?: { path: string; message: string; in?: string }[] | undefined }) {
  return (
    <div class="problem" role="alert">
      <strong>{props.status}</strong> {props.message}
      {props.details && props.details.length > 0 && (
        <ul class="field-errors">
          {props.details.map((d) => (
            <li>
              <code>{[d.in, d.path].filter(Boolean).join(" ")}</code>: {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** JSON, pretty-printed (escaped like any text). */
export function Json(props: { value: unknown; id?: string }) {
  return <pre class="json" id={props.id}>{props.value === undefined || props.value === null ? "(none)" : JSON.stringify(props.value, null, 2)}</pre>;
}

/** A <pre> with text to copy and its button (inspector.js copies the <pre>'s text). */
export function Copyable(props: { id: string; label: string; text: string }) {
  return (
    <div class="copyable">
      <button type="button" data-copy={props.id}>
        {props.label}
      </button>
      <pre id={props.id}>{props.text}</pre>
    </div>
  );
}
