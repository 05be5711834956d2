// Serves web/dist on 127.0.0.1 only: `node web/serve.mjs [port]` (default 8080, or $PORT).
// The browser test starts the same server on a free port.
import { createServer } from "node:http";
import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { createHash } from "node:crypto";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".webmanifest": "application/manifest+json",
  ".json": "application/json",
};

export const DIST = fileURLToPath(new URL("./dist/", import.meta.url));

/// Starts the server; resolves to it once it listens (port 0 picks a free port).
export async function serve(root = DIST, port = 0) {
  const base = resolve(root);
  // Each file compressed once, by its content: a rebuilt file (even of the same size) is
  // compressed afresh.
  const gzipped = new Map();
  const compressed = (file, body) => {
    const key = createHash("sha256").update(body).digest("hex");
    if (!gzipped.has(key)) gzipped.set(key, gzipSync(body, { level: 6 }));
    return gzipped.get(key);
  };
  const compressible = (file) => extname(file) !== ".png";
  const server = createServer(async (request, response) => {
    try {
      const path = decodeURIComponent(new URL(request.url, "http://127.0.0.1").pathname);
      let file = normalize(join(base, path.endsWith("/") ? path + "index.html" : path));
      if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error("outside"), { code: "ENOENT" });
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      let body = await readFile(file);
      const headers = {
        "Content-Type": TYPES[extname(file)] || "application/octet-stream",
        "Cache-Control": "no-cache",
      };
      // Compressed as a real host would send it; the page counts its progress from the raw size.
      if (/\bgzip\b/.test(request.headers["accept-encoding"] || "") && compressible(file)) {
        body = compressed(file, body);
        headers["Content-Encoding"] = "gzip";
      }
      headers["Content-Length"] = body.length;
      response.writeHead(200, headers);
      response.end(request.method === "HEAD" ? undefined : body);
    } catch (error) {
      const missing = error.code === "ENOENT" || error.code === "ENOTDIR";
      response.writeHead(missing ? 404 : 500, { "Content-Type": "text/plain" });
      response.end(missing ? "not found\n" : "server error\n");
    }
  });
  // Compressed once before the first visitor comes, as a host keeps its files compressed: the
  // page's first load then waits for the bytes, not for the server.
  for (const name of await readdir(base).catch(() => [])) {
    const file = join(base, name);
    const body = compressible(file) && (await readFile(file).catch(() => undefined));
    if (body) compressed(file, body);
  }
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => done(server));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] || process.env.PORT || 8080);
  const server = await serve(DIST, port);
  console.log(`Tabla is served at http://127.0.0.1:${server.address().port}/ (Ctrl+C stops it)`);
}
