package upstreamtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

// Scripted upstreams misbehave on purpose, to test what the gateway and
// the crawler make of it. They answer initialize like any MCP server, then
// every other request as their mode says:
//
//   - echo: a JSON-RPC error repeating what the upstream was configured
//     with (over HTTP the URL and the Authorization header; over stdio the
//     arguments and the variable UPSTREAMTEST_ECHO), as a careless server
//     might.
//   - big: a tool result whose text is BigBytes long, written in pieces so
//     that the upstream itself holds little of it.
//   - angles: a tool result whose text is AngleCount '<' characters, sent
//     unescaped (Go's encoder would send \u003c, 6 bytes each).
//   - forms: as echo, the echo in every form of Transformed.
//   - leak: a tool result with isError set whose text, structured content
//     and _meta repeat the echo as it is, JSON-escaped and in every form
//     of Transformed: a successful answer that carries the credential.
//   - wrongid: a tool result answering another JSON-RPC id than the
//     request's (WrongID).
//   - nullid: a parse error answering the id null.
//
// Over stdio, two more modes: serve runs NewMCPServer, and die writes its
// arguments and UPSTREAMTEST_ECHO to stderr and exits with status 3 before
// reading anything.

// ModeEnv selects the mode of a test binary run as a stdio upstream (see
// ServeStdioIfAsked).
const ModeEnv = "UPSTREAMTEST_MODE"

// EchoEnv is the variable a stdio upstream in mode echo or die repeats.
const EchoEnv = "UPSTREAMTEST_ECHO"

// BigBytes is the length of the text mode big answers: 50 MB.
const BigBytes = 50 << 20

// AngleCount is the length of the text mode angles answers.
const AngleCount = 100_000

// DieMarker starts what a stdio upstream in mode die writes to stderr.
const DieMarker = "upstreamtest: dying at start"

// ServeStdioIfAsked makes a test binary a stdio upstream: called first
// thing in TestMain, it runs the mode ModeEnv names and exits, or returns
// at once when ModeEnv is unset.
func ServeStdioIfAsked() {
	mode := os.Getenv(ModeEnv)
	switch mode {
	case "":
		return
	case "serve":
		if err := server.ServeStdio(NewMCPServer()); err != nil {
			os.Exit(1)
		}
	case "die":
		fmt.Fprintf(os.Stderr, "%s\nargs: %s\necho: %s\nnpm error 404 Not Found - the package does not exist\n",
			DieMarker, strings.Join(os.Args[1:], " "), os.Getenv(EchoEnv))
		os.Exit(3)
	default:
		serveScripted(os.Stdin, os.Stdout, mode, "args: "+strings.Join(os.Args[1:], " ")+" echo: "+os.Getenv(EchoEnv))
	}
	os.Exit(0)
}

// serveScripted answers the JSON-RPC requests of in, a line each, on out.
func serveScripted(in io.Reader, out io.Writer, mode, echo string) {
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue
		}
		answer(out, req.ID, req.Method, mode, echo)
		io.WriteString(out, "\n")
	}
}

// answer writes the answer of mode to the request id, method.
func answer(w io.Writer, id json.RawMessage, method, mode, echo string) {
	switch {
	case method == "initialize":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"prompts":{},"resources":{}},"serverInfo":{"name":"scripted","version":"1"}}}`, id)
	case method == "server/discover" || method == "ping":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, id)
	case mode == "big":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, id)
		chunk := []byte(strings.Repeat("a", 64<<10))
		for n := 0; n < BigBytes; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		io.WriteString(w, `"}]}}`)
	case mode == "forms":
		msg, _ := json.Marshal("refused; I was given " + strings.Join(Transformed(echo), " | "))
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":%s}}`, id, msg)
	case mode == "leak":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, leakResult(echo))
	case mode == "nullid":
		io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`)
	case mode == "wrongid":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%q,"result":{"content":[{"type":"text","text":"an answer to another request"}]}}`, WrongID)
	case mode == "angles":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"%s"}]}}`, id, strings.Repeat("<", AngleCount))
	default:
		msg, _ := json.Marshal("refused; I was given " + echo)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":%s}}`, id, msg)
	}
}

// StartScripted serves a scripted upstream in a mode other than serve and
// die over streamable HTTP on 127.0.0.1 until tb ends, and returns its
// URL. With status other than 200, requests other than initialize are
// answered with that HTTP status and the echo (in mode forms, transformed)
// as a plain-text body.
func StartScripted(tb testing.TB, mode string, status int) string {
	tb.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		if len(req.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		echo := r.URL.String() + " with Authorization: " + r.Header.Get("Authorization")
		if status != http.StatusOK && req.Method != "initialize" && req.Method != "server/discover" {
			if mode == "forms" {
				echo = strings.Join(Transformed(echo), " | ")
			}
			http.Error(w, "refused; I was given "+echo, status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		answer(w, req.ID, req.Method, mode, echo)
	})
	return serve(tb, h)
}
