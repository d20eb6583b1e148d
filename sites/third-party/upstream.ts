/**
 * Public WebMCP demo pages written by others, which the e2e suite runs unchanged
 * (test/e2e/webmcp-third-party.spec.ts). Only their coordinates live in this repository: the
 * upstream repository, the commit, each file's path and git blob id, and the licence. The bytes
 * are read from a local snapshot of the upstream repository at that commit (serve.ts), and a file
 * whose bytes do not hash to its blob id is refused, so a page is served exactly as upstream has it.
 */

export interface UpstreamFile {
  /** Path inside the upstream repository; the lab serves it at `/third-party/<owner>/<name>/<path>`. */
  path: string;
  /** The file's git blob id at `commit` (`git rev-parse <commit>:<path>`). */
  blob: string;
}

export interface UpstreamRepo {
  /** `owner/name` on GitHub. */
  repo: string;
  commit: string;
  /** SPDX identifier, and the licence's own file in the repository (not served: it stays upstream's). */
  licence: string;
  licenceFile: UpstreamFile;
  files: UpstreamFile[];
}

export const WEBMCP_TOOLS: UpstreamRepo = {
  repo: 'GoogleChromeLabs/webmcp-tools',
  commit: '9626f8d568a223d8143790640c07f7800c733103',
  licence: 'Apache-2.0',
  licenceFile: { path: 'LICENSE', blob: 'f49a4e16e68b128803cc2dcea614603632b04eac' },
  files: [
    // Pizza maker: seven imperative tools registered with `exposedTo`, behind the demos' own polyfill
    // (which steps aside when `document.modelContext` is already there).
    { path: 'demos/shared/webmcp-polyfill.js', blob: 'c6d74721de5fe206b306eddd7f13c9de95968fc5' },
    { path: 'demos/pizza-maker/index.html', blob: 'd83936809e1ef7269dda10c3978facc5bb2ab16b' },
    { path: 'demos/pizza-maker/script.js', blob: 'a54c931e829d6844bfd7ab93bc4b84380b89ccbd' },
    { path: 'demos/pizza-maker/style.css', blob: '0654a73b90ad7b2a767bcfeffddc9af544a3daa4' },
    // Doors: declarative forms that navigate (`toolautosubmit`), imperative tools, and a tool that
    // aborts its own registration while it runs and turns a plain form into a tool.
    { path: 'demos/doors/index.html', blob: '7be6c0c4abd420779d8157381c863f2b4237a575' },
    { path: 'demos/doors/forest.html', blob: '125d62c4719eb9137d1aa63895a26f6f6bf00ae6' },
    { path: 'demos/doors/ocean.html', blob: 'da38ccec58bc1f160ec9d09d16c9d03850750091' },
    { path: 'demos/doors/magic.html', blob: '9b05fb8aa178b3c34c2201169258fbbccc0d0d6a' },
    // Order tracking: declarative GET forms with a select, a text input and required fields, each
    // navigating to the page that answers.
    { path: 'demos/order-tracking/index.html', blob: 'b9040fe55787016bb6da73db1fc1a0436885ab72' },
    { path: 'demos/order-tracking/history.html', blob: '99f24c47166c5ad9dc2b12ea6f584f565ad3ca3c' },
    { path: 'demos/order-tracking/result.html', blob: '9d092e16edce4b01441571e3eac31a3366d6d853' },
    { path: 'demos/order-tracking/style.css', blob: '2ae37ae476f8d0941d7a9ccfab259a6b7de49b73' },
    // French bistro: a reservation form answered through `SubmitEvent.respondWith()` (its
    // confirmation, or its validation errors), in three modes chosen by the query: declarative
    // (`?toolautosubmit`), imperative (`?imperative`: an imperative tool built at load from the
    // declarative tool's listed schema), and cross-document (`?crossdocument`: the form navigates).
    // Its in-page chat agent (agent.js) needs a Gemini key and stays idle without one.
    { path: 'demos/french-bistro/index.html', blob: '4295360cad94523c9c666c1fff58fb2a2f92babd' },
    { path: 'demos/french-bistro/script.js', blob: '0dc9b98680521154f67e06268265d3e206c40bbb' },
    { path: 'demos/french-bistro/style.css', blob: '6b63bb82f27f4f8fb7230a8f31c7f1e55f237116' },
    { path: 'demos/french-bistro/agent.js', blob: '4cd636e592285cabaaac1c70ce891f0123cb757e' },
    { path: 'demos/french-bistro/agent.css', blob: '58c07601e4859936b8b94872574b8a3c2e184036' },
    { path: 'demos/french-bistro/result.html', blob: '8f1b05b8dc394742de9809f8833364a35a519f9c' },
  ],
};

export const UPSTREAM_REPOS: readonly UpstreamRepo[] = [WEBMCP_TOOLS];

/** Where the lab serves an upstream file. */
export const thirdPartyPath = (upstream: UpstreamRepo, path: string): string => `/third-party/${upstream.repo}/${path}`;
