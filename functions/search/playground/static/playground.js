// The mcpsearch playground: a search box over this server's MCP endpoint.
// It speaks JSON-RPC to POST mcp (relative to the page) like any client:
// initialize for the extension settings (index version, catalog), then
// */search with the explain option. Every text it shows comes from the
// server and is set with textContent, never parsed as HTML.
'use strict';

const EXT = 'io.github.mcpsearch/search';
const META = {
  score: 'io.github.mcpsearch/score',
  server: 'io.github.mcpsearch/server',
  hint: 'io.github.mcpsearch/hint',
  explain: 'io.github.mcpsearch/explain',
};
// The kinds the page offers: the search method and the result key of each.
const KINDS = {
  tools: { method: 'tools/search', key: 'tools', count: 'tool' },
  prompts: { method: 'prompts/search', key: 'prompts', count: 'prompt' },
  resources: { method: 'resources/search', key: 'resources', count: 'resource' },
  templates: { method: 'resources/templates/search', key: 'resourceTemplates', count: 'resourceTemplate' },
};
const PAGE = 10;

const $ = (id) => document.getElementById(id);
let nextId = 1;
let current = null; // the search shown: {params, kind, shown}

// rpc sends one JSON-RPC request and returns its result, or throws the
// JSON-RPC error.
async function rpc(method, params) {
  const res = await fetch('mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  let body;
  try {
    body = await res.json();
  } catch {
    throw new Error(`HTTP ${res.status} without a JSON-RPC answer`);
  }
  if (body.error) throw new Error(`${body.error.message} (${body.error.code})`);
  return body.result;
}

// el creates an element with a class and text.
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function setStatus(text, isError) {
  $('status').textContent = text;
  $('status').classList.toggle('error', !!isError);
}

// ---- index panel ----

async function loadIndex() {
  const result = await rpc('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'mcpsearch-playground', version: '1' },
  });
  const settings = (result.capabilities.extensions || {})[EXT] || (result.capabilities.experimental || {}).search;
  if (!settings) throw new Error('this server does not advertise the search extension');
  showFacts(result.serverInfo, settings);
  showServers(settings.catalog);
}

function showFacts(serverInfo, settings) {
  const c = settings.catalog || {};
  // A catalog whose items are not all public describes neither its servers
  // nor its counts (every caller gets the same capabilities).
  const count = (k) => (c.restricted ? 'hidden: visibility is per caller' : c.counts ? c.counts[k] || 0 : undefined);
  const facts = [
    ['servers', c.restricted ? 'hidden: visibility is per caller' : c.serverCount],
    ['tools', count('tool')],
    ['prompts', count('prompt')],
    ['resources', count('resource')],
    ['templates', count('resourceTemplate')],
    ['bundle', c.bundleBytes ? formatBytes(c.bundleBytes) : '–'],
    ['built', c.builtAt ? c.builtAt.replace('T', ' ').replace('Z', ' UTC') : '–'],
    ['index', settings.index ? settings.index.slice(0, 12) : '–'],
    ['server', `${serverInfo.name} ${serverInfo.version}`],
  ];
  const dl = $('facts');
  dl.replaceChildren();
  for (const [name, value] of facts) {
    const dt = el('dt', null, name);
    const dd = el('dd', null, value === undefined ? '–' : typeof value === 'number' ? value.toLocaleString('en') : value);
    dd.id = `fact-${name}`;
    if (name === 'index') dd.title = settings.index;
    dl.append(dt, dd);
  }
}

function formatBytes(n) {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KB`;
  return `${n} B`;
}

function showServers(catalog) {
  const servers = (catalog && catalog.servers) || [];
  const select = $('server');
  const body = $('servers');
  body.replaceChildren();
  for (const s of servers) {
    select.append(new Option(s.name, s.name));
    const row = el('tr');
    row.append(el('td', null, s.name));
    for (const k of ['tool', 'prompt', 'resource', 'resourceTemplate']) row.append(el('td', null, s.counts[k] || ''));
    row.addEventListener('click', () => { select.value = s.name; search(); });
    body.append(row);
  }
  if (catalog && catalog.serversTruncated) $('server-list').querySelector('summary').textContent = `Servers (first ${servers.length})`;
}

// ---- search ----

function searchParams() {
  const params = { query: $('query').value.trim(), limit: PAGE };
  const server = $('server').value;
  if (server) params.filter = { servers: [server] };
  if ($('explain').checked) params._meta = { [META.explain]: true };
  return params;
}

async function search() {
  const params = searchParams();
  if (!params.query) return;
  const kind = $('kind').value;
  rememberInURL();
  current = { params, kind, shown: 0 };
  $('results').replaceChildren();
  $('more').hidden = true;
  setStatus('Searching…');
  await fetchPage(current);
}

async function fetchPage(s) {
  const started = performance.now();
  let result;
  try {
    result = await rpc(KINDS[s.kind].method, s.params);
  } catch (err) {
    setStatus(err.message, true);
    return;
  }
  if (s !== current) return; // a newer search replaced this one
  const ms = Math.round(performance.now() - started);
  const items = result[KINDS[s.kind].key] || [];
  for (const item of items) $('results').append(renderHit(item, s.kind, ++s.shown));
  const hint = result._meta && result._meta[META.hint];
  if (s.shown === 0) setStatus(hint ? `No results: ${hint}` : 'No results.');
  else setStatus(`${s.shown} ${s.kind} shown${result.nextCursor ? ', more follow' : ''} · ${ms} ms`);
  $('more').hidden = !result.nextCursor;
  s.params = { ...s.params, cursor: result.nextCursor };
}

// renderHit builds one result: name, server, score, description, the
// parameters (or URI), and the explanation when there is one.
function renderHit(item, kind, rank) {
  const meta = item._meta || {};
  const li = el('li', 'hit');
  li.dataset.name = item.name || '';
  const head = el('div', 'hit-head');
  head.append(el('span', 'rank', rank), el('span', 'name', kind === 'resources' ? item.uri : item.name));
  if (item.title || (item.annotations && item.annotations.title)) head.lastChild.title = item.title || item.annotations.title;
  head.append(el('span', 'server', meta[META.server]), el('span', 'score', score(meta[META.score])));
  li.append(head);
  if (item.description) {
    const desc = el('p', 'desc', item.description);
    desc.title = 'click to show all';
    desc.addEventListener('click', () => desc.classList.toggle('full'));
    li.append(desc);
  }
  li.append(renderDetails(item, kind));
  if (meta[META.explain]) li.append(renderExplanation(meta[META.explain]));
  return li;
}

function score(v) {
  return typeof v === 'number' ? `score ${v.toFixed(3)}` : '';
}

// renderDetails shows a tool's parameter names (required ones marked *), a
// prompt's arguments, or a resource's URI.
function renderDetails(item, kind) {
  const p = el('p', 'params');
  let label = 'parameters';
  let names = [];
  if (kind === 'tools') {
    const schema = item.inputSchema || {};
    const required = new Set(schema.required || []);
    names = Object.keys(schema.properties || {}).map((n) => (required.has(n) ? `${n}*` : n));
  } else if (kind === 'prompts') {
    label = 'arguments';
    names = (item.arguments || []).map((a) => (a.required ? `${a.name}*` : a.name));
  } else {
    label = kind === 'resources' ? 'name' : 'uri template';
    names = [kind === 'resources' ? item.name : item.uriTemplate];
    if (item.mimeType) names.push(item.mimeType);
  }
  p.append(el('span', 'label', `${label}:`));
  if (names.length === 0) p.append('none');
  for (const n of names) p.append(el('code', null, n));
  return p;
}

// renderExplanation shows the written requests that matched, which fields
// and terms matched, with their share of the BM25 score, and the
// re-ranking signals added to it.
function renderExplanation(e) {
  const box = el('div', 'explain');
  renderRequest(box, 'matched request', e.request);
  const table = el('table');
  for (const f of e.fields || []) {
    const row = el('tr');
    const cell = el('td');
    const terms = el('div', 'terms');
    cell.append(terms);
    for (const t of f.terms || []) {
      const term = el('span', 'term', `${t.term} `);
      term.append(el('b', null, t.score.toFixed(3)));
      terms.append(term);
    }
    row.append(el('td', 'field', f.field), el('td', 'num', f.score.toFixed(3)), cell);
    table.append(row);
  }
  box.append(table);
  box.append(renderSignals(e));
  box.title = e.summary || '';
  return box;
}

// renderRequest shows the written request of the explanation, the item's
// best-matching one (request), with the share of the query's weight it
// holds.
function renderRequest(box, label, r) {
  if (!r) return;
  const p = el('p', 'request');
  p.append(el('span', 'label', `${label}: `), el('q', null, r.text), el('span', 'share', ` ${r.share.toFixed(3)} of the query's weight`));
  box.append(p);
}

function renderSignals(e) {
  const line = el('div', 'signals');
  const signal = (text, value) => {
    const cls = value > 0 ? 'signal plus' : value < 0 ? 'signal minus' : 'signal';
    line.append(el('span', cls, value === undefined ? text : `${text} ${value >= 0 ? '+' : ''}${value.toFixed(3)}`));
  };
  signal(`BM25 ${e.bm25.toFixed(3)} (sum of the fields)`);
  const r = e.rerank;
  if (!r) {
    signal('not re-ranked (past the re-ranking window)');
    return line;
  }
  signal(`÷ best BM25 = ${r.bm25Share.toFixed(3)}`);
  const matched = r.nameWordsMatched || [];
  const words = r.nameWords || [];
  signal(`name coverage ${matched.length}/${words.length}${matched.length ? ` (${matched.join(', ')})` : ''}`, r.name);
  if (r.action) signal(`action ${r.action}`, r.actionScore);
  if (r.exactName) signal('exact name', r.exactNameScore);
  if (r.similarityScore) signal(`word-vector similarity ${r.similarity.toFixed(3)}`, r.similarityScore);
  if (r.clauseScore) signal('nearest to a clause of the task', r.clauseScore);
  signal(`= ${e.score.toFixed(3)}`);
  return line;
}

// ---- URL state: a search can be shared as a link ----

function rememberInURL() {
  const u = new URL(location.href);
  u.search = '';
  u.searchParams.set('q', $('query').value.trim());
  if ($('kind').value !== 'tools') u.searchParams.set('kind', $('kind').value);
  if ($('server').value) u.searchParams.set('server', $('server').value);
  if ($('explain').checked) u.searchParams.set('explain', '1');
  history.replaceState(null, '', u);
}

function restoreFromURL() {
  const p = new URLSearchParams(location.search);
  if (p.has('kind') && KINDS[p.get('kind')]) $('kind').value = p.get('kind');
  if (p.has('server')) $('server').value = p.get('server');
  $('explain').checked = p.get('explain') === '1';
  if (p.has('q')) {
    $('query').value = p.get('q');
    search();
  }
}

async function start() {
  $('form').addEventListener('submit', (ev) => { ev.preventDefault(); search(); });
  for (const id of ['kind', 'server', 'explain']) $(id).addEventListener('change', search);
  $('more').addEventListener('click', () => current && fetchPage(current));
  try {
    await loadIndex();
  } catch (err) {
    setStatus(`Could not read the index: ${err.message}`, true);
  }
  restoreFromURL();
  document.body.dataset.ready = 'true';
  $('query').focus();
}

start();
