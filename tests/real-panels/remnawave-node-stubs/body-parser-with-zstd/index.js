'use strict';
// stand: a stand-in for the one call the node makes (src/main.ts:
// bodyParser.json({limit})). The backend sends its bodies zstd-compressed
// (Content-Encoding: zstd); node:zlib decodes them.
const zlib = require('node:zlib');

const decoders = {
  identity: (b) => b,
  gzip: zlib.gunzipSync,
  deflate: zlib.inflateSync,
  br: zlib.brotliDecompressSync,
  zstd: zlib.zstdDecompressSync,
};

function bytes(limit) {
  if (typeof limit === 'number') return limit;
  const m = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(String(limit || '100kb'));
  if (!m) throw new TypeError('body-parser stand-in: bad limit ' + limit);
  return Number(m[1]) * { b: 1, kb: 1 << 10, mb: 1 << 20, gb: 1 << 30 }[(m[2] || 'b').toLowerCase()];
}

function fail(next, status, type, message) {
  const e = new Error(message);
  e.status = e.statusCode = status;
  e.type = type;
  e.expose = true;
  next(e);
}

exports.json = function json(options = {}) {
  const limit = bytes(options.limit);
  return function jsonParser(req, res, next) {
    if (req._body) return next();
    req.body = req.body || {};
    const type = String(req.headers['content-type'] || '');
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;
    if (!hasBody || !/^application\/([\w.+-]*\+)?json\b/i.test(type)) return next();
    const encoding = String(req.headers['content-encoding'] || 'identity').toLowerCase();
    const decode = decoders[encoding];
    if (!decode) return fail(next, 415, 'encoding.unsupported', 'unsupported content encoding "' + encoding + '"');
    const chunks = [];
    let size = 0;
    let done = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > limit && !done) {
        done = true;
        req.pause();
        fail(next, 413, 'entity.too.large', 'request entity too large');
      } else if (!done) chunks.push(c);
    });
    req.on('error', (e) => { if (!done) { done = true; next(e); } });
    req.on('end', () => {
      if (done) return;
      done = true;
      let body;
      try {
        const raw = decode(Buffer.concat(chunks));
        if (raw.length > limit) return fail(next, 413, 'entity.too.large', 'request entity too large');
        const text = raw.toString('utf8');
        body = text.length ? JSON.parse(text) : {};
      } catch (e) {
        return fail(next, 400, 'entity.parse.failed', e.message);
      }
      req._body = true;
      req.body = body;
      next();
    });
  };
};
