// todokit board. Model text only ever enters the page as text (textContent,
// never innerHTML), and the page runs only this file (the server's
// Content-Security-Policy forbids inline script).
"use strict";

const GLYPHS = { completed: "✓", in_progress: "~", pending: "○", blocked: "⊘", abandoned: "✗" };

/** An element with a class and text, children appended. */
function el(tag, className, text, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const child of children) if (child) node.append(child);
  return node;
}

function setLive(on) {
  const live = document.getElementById("live");
  live.textContent = on ? "live" : "reconnecting";
  live.className = "live " + (on ? "on" : "off");
}

function counted() {
  document.body.dataset.updates = String(Number(document.body.dataset.updates) + 1);
}

function ago(ms) {
  if (ms === null || ms === undefined) return "time unknown";
  const seconds = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (seconds < 60) return seconds + " s ago";
  if (seconds < 3600) return Math.round(seconds / 60) + " min ago";
  if (seconds < 86400) return Math.round(seconds / 3600) + " h ago";
  return new Date(ms).toLocaleString();
}

function progress(counts) {
  const total = counts.pending + counts.in_progress + counts.blocked + counts.completed + counts.abandoned;
  const bar = el("progress");
  bar.max = Math.max(total, 1);
  bar.value = counts.completed;
  return [bar, el("span", "meta", counts.completed + "/" + total + " done")];
}

// The overview shows pages of conversations, newest change first: the
// first page comes with the live stream, later ones on request, and the
// stream then sends only the summaries that changed.
const PAGE = 100;
const overview = { shown: [], more: false, error: null };

/** Newest change first, then by id, as the server pages them. */
function newestFirst(a, b) {
  const at = a.changed_at ?? -1;
  const bt = b.changed_at ?? -1;
  if (at !== bt) return bt - at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function firstPage(list) {
  if (!Array.isArray(list)) {
    overview.error = list && list.error;
  } else {
    overview.error = null;
    overview.shown = list;
    overview.more = list.length >= PAGE;
  }
  renderOverview();
}

function changed(change) {
  if (change.error) {
    overview.error = change.error;
  } else {
    overview.error = null;
    const gone = new Set(change.removed || []);
    for (const summary of change.changed || []) gone.add(summary.id);
    overview.shown = overview.shown.filter((s) => !gone.has(s.id)).concat(change.changed || []);
    overview.shown.sort(newestFirst);
  }
  renderOverview();
}

async function nextPage() {
  const last = overview.shown[overview.shown.length - 1];
  const after = (last.changed_at ?? "") + ":" + last.id;
  const flash = document.getElementById("flash");
  try {
    const response = await fetch("/api/conversations?limit=" + PAGE + "&after=" + encodeURIComponent(after));
    const page = await response.json();
    if (!Array.isArray(page)) throw new Error(page.error || response.statusText);
    const known = new Set(overview.shown.map((s) => s.id));
    overview.shown = overview.shown.concat(page.filter((s) => !known.has(s.id)));
    overview.more = page.length >= PAGE;
    renderOverview();
  } catch (error) {
    flash.textContent = "The next conversations did not load: " + error;
  }
}

function renderOverview() {
  const main = document.getElementById("main");
  document.title = "todokit board";
  const heading = el("h1", null, "Conversations");
  if (overview.error) {
    main.replaceChildren(heading, el("p", "problem", overview.error));
    return;
  }
  if (overview.shown.length === 0) {
    main.replaceChildren(heading, el("p", "empty", "No conversations in this store yet."));
    return;
  }
  const cards = el("ul", "cards");
  for (const summary of overview.shown) {
    const link = el("a", null, summary.id);
    link.href = "/c/" + encodeURIComponent(summary.id);
    const card = el("li", "card", null, el("h2", null, null, link));
    card.dataset.id = summary.id;
    card.append(el("div", "meta", summary.profile || "profile unknown"));
    if (summary.problem) {
      card.append(el("p", "problem", summary.problem));
    } else {
      card.append(...progress(summary.counts));
      if (summary.in_progress) card.append(el("p", "now", summary.in_progress));
    }
    const when = el("div", "when", ago(summary.changed_at));
    if (summary.changed_at) when.title = new Date(summary.changed_at).toISOString();
    card.append(when);
    cards.append(card);
  }
  const parts = [heading, cards];
  if (overview.more) {
    const button = el("button", "more", "Show more");
    button.type = "button";
    button.addEventListener("click", nextPage);
    parts.push(button);
  }
  main.replaceChildren(...parts);
}

// Deeper subtasks than this share the deepest indent, so text keeps its room.
const MAX_SHOWN_DEPTH = 6;

function taskItem(view, task) {
  const item = el("li", "task status-" + task.status);
  const depth = Math.min(Number(task.depth) || 0, MAX_SHOWN_DEPTH);
  if (depth > 0) item.classList.add("sub", "sub-" + depth);
  item.append(el("span", "glyph", GLYPHS[task.status] || "?"));
  if (view.shows_ids && task.id) item.append(el("span", "tag", "#" + task.id));
  if (task.priority) item.append(el("span", "tag priority-" + task.priority, task.priority));
  item.append(el("span", "text", task.display));
  if (task.owner) item.append(el("span", "tag owner", task.owner));
  if (view.can_edit) item.append(actions(view, task));
  if (task.open_blockers && task.open_blockers.length) {
    item.append(el("div", "blocked", "blocked by " + task.open_blockers.map((id) => "#" + id).join(", ")));
  }
  if (task.status === "in_progress" && task.notes && task.notes.length) {
    const notes = el("ul", "notes");
    for (const note of task.notes) notes.append(el("li", null, note));
    item.append(notes);
  }
  return item;
}

function actions(view, task) {
  const box = el("span", "actions");
  const offer = (action, label) => {
    const button = el("button", null, label);
    button.type = "button";
    button.addEventListener("click", () => edit(view.id, action, task.content));
    box.append(button);
  };
  if (task.status === "pending" || task.status === "blocked") offer("start", "Start");
  if (task.status !== "completed" && task.status !== "abandoned") {
    offer("done", "Done");
    offer("drop", "Drop");
  }
  if (view.can_claim && task.owner) offer("release", "Release");
  if (view.can_claim && task.status !== "completed" && task.status !== "abandoned") {
    const button = el("button", null, task.owner ? "Reassign" : "Claim");
    button.type = "button";
    button.addEventListener("click", () => {
      const owner = window.prompt("Who takes " + task.content + "?", task.owner || "");
      if (owner && owner.trim()) edit(view.id, "claim", task.content, owner.trim());
    });
    box.append(button);
  }
  return box;
}

async function edit(id, action, name, owner) {
  const flash = document.getElementById("flash");
  try {
    const response = await fetch("/api/conversations/" + encodeURIComponent(id) + "/edits", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Todokit-Csrf": "1" },
      body: JSON.stringify(owner ? { action, name, owner } : { action, name }),
    });
    const reply = await response.json().catch(() => ({ error: response.statusText }));
    flash.textContent = reply.error ? reply.error : reply.action ? "You " + reply.action + "." : "No change.";
  } catch (error) {
    flash.textContent = "The edit did not reach the board: " + error;
  }
}

function renderList(view) {
  const main = document.getElementById("main");
  document.title = view.id + " · todokit board";
  const parts = [el("h1", null, view.id), el("div", "meta", (view.profile || "") + " · version " + (view.version ?? 0))];
  if (view.problem) {
    main.replaceChildren(...parts, el("p", "problem", view.problem));
    return;
  }
  parts.push(...progress(view.counts));
  if (view.explanation) parts.push(el("p", "explanation", view.explanation));
  if (!view.phases.length) parts.push(el("p", "empty", "No todos."));
  for (const phase of view.phases) {
    const section = el("section", "phase");
    if (phase.name) section.append(el("h2", null, phase.name));
    const tasks = el("ul", "tasks");
    for (const task of phase.tasks) tasks.append(taskItem(view, task));
    section.append(tasks);
    parts.push(section);
  }
  main.replaceChildren(...parts);
}

/** Follows the event stream at `url`, drawing each named event with its handler. */
function follow(url, handlers) {
  const source = new EventSource(url);
  for (const [eventName, render] of Object.entries(handlers)) {
    source.addEventListener(eventName, (event) => {
      setLive(true);
      render(JSON.parse(event.data));
      counted();
    });
  }
  source.addEventListener("open", () => setLive(true));
  source.addEventListener("error", () => setLive(false));
}

/**
 * Draws what `url` answers now with `render`, before any stream opens, so
 * the page is never blank once loaded; the stream then brings each change.
 * A failed fetch leaves the drawing to the stream.
 */
async function drawNow(url, render) {
  try {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    if (response.ok) render(await response.json());
  } catch (error) {
    // The stream says whether the server can be reached.
  }
}

document.addEventListener("DOMContentLoaded", async () => {
  document.body.dataset.loads = String(Number(document.body.dataset.loads) + 1);
  const path = window.location.pathname;
  if (path.startsWith("/c/")) {
    let id;
    try {
      id = decodeURIComponent(path.slice(3));
    } catch (error) {
      // A hand-typed or truncated address: say so instead of waiting.
      const live = document.getElementById("live");
      live.textContent = "not following";
      live.className = "live off";
      document.getElementById("main").replaceChildren(
        el("h1", null, "No such conversation"),
        el("p", "problem", "This address does not name a conversation: " + path.slice(3) +
          " is not a valid percent-encoded id. Open one from the overview."),
      );
      return;
    }
    const api = "/api/conversations/" + encodeURIComponent(id);
    await drawNow(api, renderList);
    follow(api + "/events", { list: renderList });
  } else {
    await drawNow("/api/conversations?limit=" + PAGE, firstPage);
    follow("/api/events", { conversations: firstPage, changed });
  }
});
