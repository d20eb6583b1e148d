/**
 * A generated admin table ("Team members") of about `n` elements: the page the observation
 * benchmarks and the hard-page tests load at 1.6k, 16k and 80k elements. Every row carries the
 * controls a real admin table has — a selection checkbox, a link, a role select, Edit and Remove —
 * so the page is repetitive in exactly the way an LLM rendering must collapse.
 *
 * Built with plain string concatenation: the 80k page is several megabytes of HTML.
 */
import { escapeHtml } from '../http.ts';

/** Elements per table row (tr, 8 td, checkbox, link, name, badge, time, select + 3 options, 2 buttons). */
const ELEMENTS_PER_ROW = 20;
/** Elements outside the rows (shell, toolbar, header, pager), roughly. */
const CHROME_ELEMENTS = 70;
export const MIN_GRID_ELEMENTS = 100;
export const MAX_GRID_ELEMENTS = 200_000;

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Niklaus', 'Radia', 'Tim'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Hamilton', 'Wirth', 'Perlman', 'Lee'];
const ROLES = ['Viewer', 'Editor', 'Admin'] as const;
const STATUSES = [
  ['active', 'ok', 'Active'],
  ['invited', 'info', 'Invited'],
  ['suspended', 'bad', 'Suspended'],
] as const;

/** How many rows a grid of about `n` elements has. */
function gridRows(n: number): number {
  return Math.max(1, Math.round((n - CHROME_ELEMENTS) / ELEMENTS_PER_ROW));
}

export function userId(i: number): string {
  return `USR-${String(i + 1).padStart(5, '0')}`;
}

function row(i: number): string {
  const id = userId(i);
  const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`;
  const email = `${name.toLowerCase().replace(' ', '.')}${i}@example.test`;
  const role = ROLES[i % 3]!;
  const [status, tone, label] = STATUSES[i % 7 === 3 ? 2 : i % 5 === 1 ? 1 : 0]!;
  const day = String((i % 28) + 1).padStart(2, '0');
  const options = ROLES.map((r) => `<option${r === role ? ' selected' : ''}>${r}</option>`).join('');
  return (
    `<tr data-user-id="${id}">` +
    `<td><input type="checkbox" name="selected" value="${id}" aria-label="Select ${id}"></td>` +
    `<td><a href="/grid/users/${id}">${id}</a></td>` +
    `<td><span class="name">${escapeHtml(name)}</span></td>` +
    `<td>${escapeHtml(email)}</td>` +
    `<td><span class="badge ${tone}" data-status="${status}">${label}</span></td>` +
    `<td><time datetime="2026-07-${day}">Jul ${Number(day)}</time></td>` +
    `<td><select name="role-${id}" aria-label="Role of ${id}">${options}</select></td>` +
    `<td><button type="button" class="small secondary" data-action="edit">Edit</button> ` +
    `<button type="button" class="small danger" data-action="remove" aria-label="Remove ${id}">Remove</button></td>` +
    `</tr>`
  );
}

/** The grid page's `<main>` content for about `n` elements (clamped to the allowed range). */
export function gridBody(n: number): { body: string; rows: number } {
  const rows = gridRows(n);
  const parts: string[] = [];
  parts.push(`<section class="card">
<h1>Team members</h1>
<p class="muted" id="grid-summary" role="status">${rows} members · generated for about ${n} elements</p>
<form class="row" id="grid-filter" role="search" method="get" action="/grid">
  <div><label for="grid-search">Search members</label><input id="grid-search" type="search" name="q" placeholder="Name or email"></div>
  <div><label for="grid-status">Status</label><select id="grid-status" name="status"><option value="">Any</option><option>Active</option><option>Invited</option><option>Suspended</option></select></div>
  <input type="hidden" name="n" value="${n}">
  <div><button type="submit" class="secondary">Filter</button></div>
  <div><button type="button" id="invite-member">Invite member</button></div>
</form>
</section>
<section class="card">
<table id="members" aria-label="Team members">
<thead><tr>
<th scope="col"><input type="checkbox" id="select-all" aria-label="Select all members"></th>
<th scope="col"><button type="button" class="small secondary" data-sort="id">ID</button></th>
<th scope="col"><button type="button" class="small secondary" data-sort="name">Name</button></th>
<th scope="col">Email</th><th scope="col">Status</th>
<th scope="col"><button type="button" class="small secondary" data-sort="last-login">Last login</button></th>
<th scope="col">Role</th><th scope="col">Actions</th>
</tr></thead>
<tbody>`);
  for (let i = 0; i < rows; i++) parts.push(row(i));
  parts.push(`</tbody>
</table>
<nav aria-label="Pages" class="row" style="margin-top:12px">
  <button type="button" class="small secondary" disabled>Previous</button>
  <span class="muted">Page 1 of 1</span>
  <button type="button" class="small secondary" disabled>Next</button>
</nav>
</section>`);
  return { body: parts.join('\n'), rows };
}
