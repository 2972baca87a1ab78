#!/usr/bin/env node
// Validates captured requests against @remnawave/backend-contract's zod schemas.
// Route table: every exported *Command with a TSQ_url ("/api/users/:userId") and
// endpointDetails.REQUEST_METHOD (GET when absent, e.g. the public /api/sub route).
// Per request: path params -> RequestParam(s)Schema, query -> RequestQuerySchema,
// JSON body -> RequestBodySchema (strict at the top level unless --allow-unknown-keys),
// plus the reverse-proxy headers every backend request needs
// (REMNAWAVE_BYPASS_HTTPS_RESTRCTIONS). Usage: node validate_remnawave_capture.js FILE
'use strict';
const fs = require('fs');
const contract = require('@remnawave/backend-contract');
const version = require('@remnawave/backend-contract/package.json').version;

const file = process.argv[2];
const allowUnknown = process.argv.includes('--allow-unknown-keys');

const routes = [];
for (const [name, cmd] of Object.entries(contract)) {
    if (!name.endsWith('Command') || !cmd || typeof cmd.TSQ_url !== 'string') continue;
    const method = ((cmd.endpointDetails && cmd.endpointDetails.REQUEST_METHOD) || 'get').toUpperCase();
    let pattern = cmd.TSQ_url.replace(/\/+$/, '');
    // some TSQ_urls omit trailing params (GetSubscriptionByShortUuidByClientTypeCommand:
    // "/api/sub/:shortUuid" although its param schema has clientType): append them
    const pSchema = cmd.RequestParamSchema || cmd.RequestParamsSchema;
    for (const k of Object.keys((pSchema && pSchema.shape) || {}))
        if (!pattern.includes(':' + k)) pattern += '/:' + k;
    const names = [];
    const rx = new RegExp('^' + pattern.split('/').map((seg) => {
        if (seg.startsWith(':')) { names.push(seg.slice(1)); return '([^/]+)'; }
        return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }).join('/') + '/?$');
    routes.push({ name, cmd, method, pattern, rx, names });
}
// literal routes first (by-username before :userId), then longer patterns
routes.sort((a, b) => a.names.length - b.names.length || b.pattern.length - a.pattern.length);

function issues(err) {
    return err.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message} [${i.code}]`);
}
function check(schema, value, strict) {
    let s = schema;
    if (strict && !allowUnknown && typeof s.strict === 'function') s = s.strict();
    const r = s.safeParse(value);
    return r.success ? [] : issues(r.error);
}

const lines = fs.readFileSync(file, 'utf8').split('\n');
let checked = 0, failed = 0;
const used = new Set();
lines.forEach((line, idx) => {
    if (!line.trim()) return;
    let rec;
    try { rec = JSON.parse(line); } catch (e) { console.log(`FAIL line ${idx + 1}: not JSON`); failed++; return; }
    if ((rec.listener && rec.listener !== 'main') || rec.path.startsWith('/__double/')) return;
    checked++;
    const where = `line ${idx + 1}: ${rec.method} ${rec.path}${rec.query ? '?' + rec.query : ''}`;
    const errs = [];
    const hdr = {};
    for (const [k, v] of Object.entries(rec.headers || {})) hdr[k.toLowerCase()] = v;
    const bypass = contract.REMNAWAVE_BYPASS_HTTPS_RESTRCTIONS;
    if (!hdr['x-forwarded-for']) errs.push('header x-forwarded-for missing (backend drops the connection)');
    if (hdr['x-forwarded-proto'] !== bypass['x-forwarded-proto'])
        errs.push(`header x-forwarded-proto must be "${bypass['x-forwarded-proto']}"`);
    const path = rec.path.length > 1 ? rec.path.replace(/\/+$/, '') : rec.path;
    const route = routes.find((r) => r.method === rec.method && r.rx.test(path));
    if (!route) {
        const other = routes.filter((r) => r.rx.test(path)).map((r) => r.method);
        errs.push(other.length ? `method ${rec.method} not in contract (route has ${[...new Set(other)].join(',')})`
                               : 'no route in the contract matches this path');
        console.log(`FAIL ${where} -> (no command)\n    ${errs.join('\n    ')}`);
        failed++;
        return;
    }
    used.add(route.name);
    const m = route.rx.exec(path);
    const params = {};
    route.names.forEach((n, i) => { params[n] = decodeURIComponent(m[i + 1]); });
    const pSchema = route.cmd.RequestParamSchema || route.cmd.RequestParamsSchema;
    if (pSchema) errs.push(...check(pSchema, params, false).map((s) => 'params.' + s));
    const query = Object.fromEntries(new URLSearchParams(rec.query || ''));
    if (route.cmd.RequestQuerySchema) errs.push(...check(route.cmd.RequestQuerySchema, query, false).map((s) => 'query.' + s));
    if (route.cmd.RequestBodySchema) {
        const ctype = (hdr['content-type'] || '').split(';')[0].trim();
        let body;
        if (ctype !== 'application/json') errs.push(`body: Content-Type must be application/json (got "${ctype}")`);
        try { body = JSON.parse(rec.body || ''); } catch (e) { errs.push('body: not valid JSON'); }
        if (body !== undefined) errs.push(...check(route.cmd.RequestBodySchema, body, true).map((s) => 'body.' + s));
    } else if (rec.body && rec.body.length && !['GET', 'DELETE', 'HEAD'].includes(rec.method)) {
        // no body schema: the backend ignores a body, nothing to check
    }
    if (errs.length) {
        failed++;
        console.log(`FAIL ${where} -> ${route.name}\n    ${errs.join('\n    ')}`);
    } else {
        console.log(`ok   ${where} -> ${route.name}`);
    }
});
console.log(`remnawave contract @remnawave/backend-contract@${version}: ${checked} requests, ` +
            `${used.size} routes, ${failed} failed`);
process.exit(failed ? 1 : 0);
