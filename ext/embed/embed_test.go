package embed_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/mcpsearch/mcpsearch/ext/embed"
	"github.com/mcpsearch/mcpsearch/ext/embed/embedtest"
)

var fast = &embed.Calls{Timeout: 2 * time.Second, Retries: 2, Backoff: time.Millisecond}

func openAIClient(t *testing.T, srv *embedtest.Server, dims int) *embed.Client {
	t.Helper()
	c, err := embed.New(embed.Options{Backend: embed.OpenAI, Endpoint: srv.URL + "/v1", Model: "m", Dims: dims,
		APIKey: srv.APIKey, Calls: fast, Batch: 3, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func bedrockClient(t *testing.T, srv *embedtest.Server, creds aws.Credentials) *embed.Client {
	t.Helper()
	c, err := embed.New(embed.Options{Backend: embed.Bedrock, Endpoint: srv.URL, Region: srv.Region, Model: "amazon.titan-embed-text-v2:0",
		Dims: 16, Calls: fast, Credentials: func(context.Context) (aws.Credentials, error) { return creds, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("item %d reads word%d", i, i)
	}
	return out
}

// TestEmbedItemsInOrder: batches of 3, two at once, come back in the
// texts' order, each the server's vector of its text, on both backends.
func TestEmbedItemsInOrder(t *testing.T) {
	srv := embedtest.New(t, 16)
	srv.APIKey = "sk-test"
	for name, c := range map[string]*embed.Client{"openai": openAIClient(t, srv, 16), "bedrock": bedrockClient(t, srv, srv.Creds)} {
		in := texts(10)
		vecs, err := c.EmbedItems(context.Background(), in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, v := range vecs {
			if want := embedtest.Vector(in[i], 16); fmt.Sprint(v) != fmt.Sprint(want) {
				t.Errorf("%s: vector %d is not the vector of its text", name, i)
			}
		}
	}
	if got := srv.Calls.Load(); got != 4+10 {
		t.Errorf("%d calls, want 4 batches of OpenAI and 10 Bedrock calls", got)
	}
}

// TestRefusals: a 429 or 5xx is tried again (Retry-After honoured), a
// 401/403/404 is final and says what to check; the key is never quoted;
// a badly signed Bedrock call is refused.
func TestRefusals(t *testing.T) {
	srv := embedtest.New(t, 16)
	srv.APIKey = "sk-right"
	srv.Set(embedtest.Faults{Status: http.StatusTooManyRequests, RetryAfter: "1", FailFirst: 1})
	start := time.Now()
	if _, err := openAIClient(t, srv, 0).EmbedItems(context.Background(), texts(2)); err != nil {
		t.Fatalf("a 429 then 200: %v", err)
	}
	if d := time.Since(start); d < 500*time.Millisecond {
		t.Errorf("retried after %s: want Retry-After's 1 s (at least half of it)", d)
	}
	srv.Set(embedtest.Faults{})
	wrong, _ := embed.New(embed.Options{Backend: embed.OpenAI, Endpoint: srv.URL + "/v1", Model: "m", APIKey: "sk-wrong", Calls: fast})
	calls := srv.Calls.Load()
	_, err := wrong.EmbedItems(context.Background(), texts(2))
	if err == nil || !strings.Contains(err.Error(), "HTTP 401") || !strings.Contains(err.Error(), "API key") || strings.Contains(err.Error(), "sk-wrong") {
		t.Errorf("wrong key: got %v, want a 401 naming the key without quoting it", err)
	}
	if srv.Calls.Load() != calls+1 {
		t.Errorf("a 401 was tried %d times, want once", srv.Calls.Load()-calls)
	}
	other := srv.Creds
	other.SecretAccessKey = "another"
	if _, err := bedrockClient(t, srv, other).EmbedItems(context.Background(), texts(1)); err == nil || !strings.Contains(err.Error(), "HTTP 403") {
		t.Errorf("bad signature: got %v, want the endpoint's 403", err)
	}
	srv.Set(embedtest.Faults{Status: http.StatusInternalServerError})
	if _, err := openAIClient(t, srv, 0).EmbedItems(context.Background(), texts(1)); err == nil || !strings.Contains(err.Error(), "after 3 tries") {
		t.Errorf("500s: got %v, want the refusal after 3 tries", err)
	}
}

// TestBadAnswers: wrong dimensions, garbage and a timeout are errors
// that say so.
func TestBadAnswers(t *testing.T) {
	srv := embedtest.New(t, 16)
	for _, test := range []struct {
		name   string
		faults embedtest.Faults
		want   string
	}{
		{"wrong dims", embedtest.Faults{Dims: 8}, "8 dimensions: 16 were asked for"},
		{"garbage", embedtest.Faults{Body: "<html>"}, "not an embeddings list"},
		{"too few", embedtest.Faults{Body: `{"data":[{"index":0,"embedding":[1]}]}`}, "1 embeddings for 2 texts"},
		{"nan-free but zero", embedtest.Faults{Body: `{"data":[{"index":0,"embedding":[0,0]},{"index":1,"embedding":[0,0]}]}`}, "is zero"},
		{"slow", embedtest.Faults{Delay: 300 * time.Millisecond}, "no answer within"},
	} {
		srv.Set(test.faults)
		c, _ := embed.New(embed.Options{Backend: embed.OpenAI, Endpoint: srv.URL + "/v1", Model: "m",
			Calls: &embed.Calls{Timeout: 100 * time.Millisecond}, Dims: map[bool]int{true: 16}[test.name == "wrong dims"]})
		_, err := c.EmbedItems(context.Background(), texts(2))
		if err == nil || !strings.Contains(err.Error(), test.want) {
			t.Errorf("%s: got %v, want an error saying %q", test.name, err, test.want)
		}
	}
}

// TestQueryTimeoutIsDeadline: a query past its context's deadline fails
// as a deadline (the index counts it as a timeout).
func TestQueryTimeoutIsDeadline(t *testing.T) {
	srv := embedtest.New(t, 16)
	srv.Set(embedtest.Faults{Delay: 200 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := openAIClient(t, srv, 16).EmbedQuery(ctx, "weather")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want a deadline", err)
	}
}

// TestLongestQueryBounded: a query of any length sends at most
// MaxTextBytes of text (6 bytes each when JSON escapes them) and a small
// envelope.
func TestLongestQueryBounded(t *testing.T) {
	srv := embedtest.New(t, 16)
	c := openAIClient(t, srv, 16)
	for _, q := range []string{strings.Repeat("weather ", 100_000), strings.Repeat("<", 100_000), strings.Repeat("é", 100_000)} {
		if _, err := c.EmbedQuery(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	if max := srv.MaxBody.Load(); max > 6*embed.MaxTextBytes+256 {
		t.Errorf("a query's body reached %d bytes, want at most %d", max, 6*embed.MaxTextBytes+256)
	}
}

// TestEndpointRefused: an endpoint that could hold a secret, or no
// endpoint, is refused before any call.
func TestEndpointRefused(t *testing.T) {
	for _, o := range []embed.Options{
		{Backend: embed.OpenAI, Model: "m", Endpoint: "https://user:hunter2@example.com/v1"},
		{Backend: embed.OpenAI, Model: "m", Endpoint: "https://example.com/v1?key=s3cr3t"},
		{Backend: embed.OpenAI, Model: "m"},
		{Backend: "cohere", Model: "m", Endpoint: "https://example.com"},
		{Backend: embed.Bedrock, Model: "m"},
	} {
		if _, err := embed.New(o); err == nil || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%+v: got %v, want a refusal quoting no secret", o, err)
		}
	}
}

// TestConcurrentQueries: one client serves queries at once (go test -race).
func TestConcurrentQueries(t *testing.T) {
	srv := embedtest.New(t, 16)
	c := openAIClient(t, srv, 16)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			if _, err := c.EmbedQuery(context.Background(), fmt.Sprint("query ", i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// TestEmbedItemsConcurrencyBounded: EmbedItems makes at most its
// concurrency of calls at once.
func TestEmbedItemsConcurrencyBounded(t *testing.T) {
	srv := embedtest.New(t, 16)
	srv.Set(embedtest.Faults{Delay: 20 * time.Millisecond})
	if _, err := openAIClient(t, srv, 16).EmbedItems(context.Background(), texts(30)); err != nil {
		t.Fatal(err)
	}
	if got := srv.MaxInFlight.Load(); got != 2 {
		t.Errorf("at most %d calls at once, want the client's 2", got)
	}
}

// TestQueryNotRetried: a query's call is made once, whatever retries the
// client's calls allow the items' (its deadline is short).
func TestQueryNotRetried(t *testing.T) {
	srv := embedtest.New(t, 16)
	srv.Set(embedtest.Faults{Status: http.StatusServiceUnavailable})
	if _, err := openAIClient(t, srv, 16).EmbedQuery(context.Background(), "weather"); err == nil || srv.Calls.Load() != 1 {
		t.Errorf("got %v after %d calls, want the 503 after one", err, srv.Calls.Load())
	}
}
