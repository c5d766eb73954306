// Package playground serves the search playground: one static page (HTML,
// CSS and a little JavaScript, embedded, no build step, nothing fetched from
// elsewhere) where an operator types a query, picks a kind and a server,
// and sees the ranked items with their scores, why they rank there (the
// explain option of the search extension) and what the index holds.
//
// The page has no API of its own: its script speaks JSON-RPC to the MCP
// endpoint, "mcp" relative to the page, like any client — initialize for
// the extension settings, */search for results. Mount the handler at the
// root of the mux that serves /mcp.
package playground

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed static
var static embed.FS

// contentSecurityPolicy lets the page load its own script, style and
// nothing else, and talk to its own origin only.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; " +
	"connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Handler serves the page at "/" and its assets beside it; other paths get
// 404 and methods other than GET and HEAD get 405.
func Handler() http.Handler {
	root, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	files := http.FileServerFS(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
