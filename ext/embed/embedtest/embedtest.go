// Package embedtest serves vectors on 127.0.0.1 through the APIs package
// embed calls — OpenAI's POST /v1/embeddings and Bedrock's POST
// /model/MODEL/invoke (Titan text embeddings), SigV4 checked — for tests.
// Its vectors mean something: a hashed bag of words (Vector), so that a
// query and an item sharing words are near and a ranking can change by
// them. A test scripts faults with Server.Set.
package embedtest

import (
	"encoding/json"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// Faults are what the server does instead of answering well.
type Faults struct {
	Delay      time.Duration // before answering
	Status     int           // answer this status (0: 200)
	RetryAfter string        // with Status
	FailFirst  int           // answer Status to the first FailFirst calls only (0: to all)
	Body       string        // answer this body instead of the vectors
	Dims       int           // answer vectors of these dimensions instead
}

// Server is a local embeddings endpoint. Its fields after URL are read by
// tests; Set changes its faults.
type Server struct {
	// URL is the server's base: OpenAI's base URL is URL+"/v1", Bedrock's
	// endpoint URL.
	URL string
	// Dims is the dimensions of the vectors when the call asks for none.
	Dims int
	// APIKey, when set, is the bearer token an OpenAI call must carry.
	APIKey string
	// Region and Creds are what a Bedrock call must be signed for.
	Region string
	Creds  aws.Credentials

	Calls       atomic.Int64 // calls received
	Texts       atomic.Int64 // texts embedded
	MaxBody     atomic.Int64 // the largest request body received, in bytes
	MaxInFlight atomic.Int64 // the most calls it answered at once
	inFlight    atomic.Int64

	mu     sync.Mutex
	faults Faults
	bodies []string // every request body, when Keep
	Keep   bool
}

// New starts a server with vectors of dims dimensions; it stops when the
// test ends.
func New(tb testing.TB, dims int) *Server {
	s := &Server{Dims: dims, Region: "us-east-1",
		Creds: aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", SessionToken: "session-token"}}
	srv := httptest.NewServer(s)
	s.URL = srv.URL
	tb.Cleanup(srv.Close)
	return s
}

// Set replaces the server's faults.
func (s *Server) Set(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
}

// Bodies are the request bodies received (with Keep set).
func (s *Server) Bodies() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := s.Calls.Add(1)
	raiseTo(&s.MaxInFlight, s.inFlight.Add(1))
	defer s.inFlight.Add(-1)
	body, _ := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	raiseTo(&s.MaxBody, int64(len(body)))
	s.mu.Lock()
	f := s.faults
	if s.Keep {
		s.bodies = append(s.bodies, string(body))
	}
	s.mu.Unlock()
	time.Sleep(f.Delay)
	if f.Status != 0 && (f.FailFirst == 0 || n <= int64(f.FailFirst)) {
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		http.Error(w, `{"error":{"message":"scripted failure"}}`, f.Status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/embeddings":
		s.openAI(w, r, body, f)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/model/") && strings.HasSuffix(r.URL.Path, "/invoke"):
		s.bedrock(w, r, body, f)
	default:
		http.Error(w, `{"message":"no such route"}`, http.StatusNotFound)
	}
}

// raiseTo raises m to v if v is larger.
func raiseTo(m *atomic.Int64, v int64) {
	for old := m.Load(); v > old && !m.CompareAndSwap(old, v); old = m.Load() {
	}
}

// openAI answers an OpenAI embeddings call.
func (s *Server) openAI(w http.ResponseWriter, r *http.Request, body []byte, f Faults) {
	if s.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+s.APIKey {
		http.Error(w, `{"error":{"message":"Incorrect API key provided: `+r.Header.Get("Authorization")+`"}}`, http.StatusUnauthorized)
		return
	}
	var req struct {
		Model      string   `json:"model"`
		Input      []string `json:"input"`
		Dimensions int      `json:"dimensions"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.Model == "" {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	if f.Body != "" {
		io.WriteString(w, f.Body)
		return
	}
	data := make([]map[string]any, len(req.Input))
	for i, text := range req.Input {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": Vector(text, s.dims(req.Dimensions, f))}
	}
	s.Texts.Add(int64(len(req.Input)))
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

// bedrock answers a Titan InvokeModel call signed for s.Region with s.Creds.
func (s *Server) bedrock(w http.ResponseWriter, r *http.Request, body []byte, f Faults) {
	if err := CheckSignature(r, body, s.Region, s.Creds); err != "" {
		w.Header().Set("X-Amzn-Errortype", "InvalidSignatureException")
		http.Error(w, `{"message":"`+err+`"}`, http.StatusForbidden)
		return
	}
	var req struct {
		InputText  *string `json:"inputText"`
		Dimensions int     `json:"dimensions"`
		Normalize  bool    `json:"normalize"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.InputText == nil {
		http.Error(w, `{"message":"ValidationException"}`, http.StatusBadRequest)
		return
	}
	if f.Body != "" {
		io.WriteString(w, f.Body)
		return
	}
	s.Texts.Add(1)
	json.NewEncoder(w).Encode(map[string]any{"embedding": Vector(*req.InputText, s.dims(req.Dimensions, f)),
		"inputTextTokenCount": len(strings.Fields(*req.InputText))})
}

func (s *Server) dims(asked int, f Faults) int {
	switch {
	case f.Dims > 0:
		return f.Dims
	case asked > 0:
		return asked
	}
	return s.Dims
}

// Vector is the server's vector of text: each word (lower case, a final
// "s" dropped) hashed to a dimension and a sign, and a small constant
// part so no text is zero, at unit length. Texts sharing words are near.
func Vector(text string, dims int) []float32 {
	v := make([]float64, dims)
	v[0] = 0.05
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) > 3 {
			w = strings.TrimSuffix(w, "s")
		}
		h := fnv.New64a()
		h.Write([]byte(w))
		sum := h.Sum64()
		sign := 1.0
		if sum&1 == 1 {
			sign = -1
		}
		v[(sum>>1)%uint64(dims)] += sign
	}
	norm := 0.0
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, dims)
	for i, x := range v {
		out[i] = float32(x / math.Sqrt(norm))
	}
	return out
}
