package embed

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/mcpsearch/mcpsearch/ext/redact"
)

// Backends.
const (
	OpenAI  = "openai"
	Bedrock = "bedrock"
)

// Bounds of what is sent and read.
const (
	// MaxTextBytes bounds each text sent, cut at a character boundary: an
	// item's text, or a query's (so its call's body is bounded too).
	MaxTextBytes = 4096
	// MaxDims bounds the dimensions of a vector.
	MaxDims = 8192
	// maxNumberBytes bounds how a vector's component is written in JSON
	// ("-0.012345678901234567e-05,"): the answer's bound is this per
	// component asked for, and answerSlack.
	maxNumberBytes = 32
	answerSlack    = 64 << 10
)

// Defaults of Options.
const (
	DefaultBatch       = 64 // texts a call to an OpenAI-compatible endpoint
	DefaultConcurrency = 4  // calls at once of EmbedItems
	maxBatch           = 2048
)

// Model is what embeds: what a bundle records of it. It holds no secret.
type Model struct {
	Backend  string // OpenAI or Bedrock
	Name     string // the model's name or ID
	Endpoint string // the base URL called (for Bedrock, "" means the region's)
	Region   string // Bedrock's region
	Dims     int    // the vectors' dimensions
}

// Options configure New.
type Options struct {
	Backend string // OpenAI or Bedrock
	// Endpoint is an OpenAI-compatible API's base URL
	// (https://api.openai.com/v1; /embeddings is added), or what replaces
	// https://bedrock-runtime.REGION.amazonaws.com (a VPC endpoint). It
	// may hold no user, password, query or fragment: it is recorded.
	Endpoint string
	Model    string
	// Dims asks for vectors of that many dimensions (OpenAI's
	// "dimensions", Titan's "dimensions"). If zero, the model's own.
	Dims   int
	Region string // Bedrock only
	// APIKey is sent as "Authorization: Bearer" (OpenAI only); empty
	// sends none.
	APIKey string
	// Credentials sign each Bedrock call (SigV4, service bedrock).
	Credentials func(context.Context) (aws.Credentials, error)
	Calls       *Calls
	// Batch is how many texts a call to an OpenAI-compatible endpoint
	// carries (Bedrock takes one). If zero, DefaultBatch.
	Batch int
	// Concurrency is how many calls EmbedItems makes at once. If zero,
	// DefaultConcurrency.
	Concurrency int
}

// Client embeds texts with one model. It is safe for concurrent use.
type Client struct {
	model       Model
	batch       int
	concurrency int
	calls       Calls
	send        func(ctx context.Context, calls Calls, texts []string) ([][]float32, error)
	apiKey      string
	redactor    *redact.Redactor // of the API key
}

// New checks o and returns its client.
func New(o Options) (*Client, error) {
	if err := o.check(); err != nil {
		return nil, fmt.Errorf("embeddings endpoint: %w", err)
	}
	c := &Client{
		model:       Model{Backend: o.Backend, Name: o.Model, Endpoint: strings.TrimRight(o.Endpoint, "/"), Region: o.Region, Dims: o.Dims},
		batch:       cmp.Or(o.Batch, DefaultBatch),
		concurrency: max(1, cmp.Or(o.Concurrency, DefaultConcurrency)),
		calls:       o.Calls.orDefaults(),
		apiKey:      o.APIKey,
		redactor:    redact.New(o.APIKey),
	}
	switch o.Backend {
	case OpenAI:
		c.send = c.openAI
	case Bedrock:
		c.batch = 1
		c.send = (&bedrock{client: c, credentials: o.Credentials}).embed
	}
	return c, nil
}

func (o Options) check() error {
	switch {
	case o.Backend != OpenAI && o.Backend != Bedrock:
		return fmt.Errorf("backend %q: want %s or %s", o.Backend, OpenAI, Bedrock)
	case o.Model == "":
		return errors.New("name the model")
	case o.Dims < 0 || o.Dims > MaxDims:
		return fmt.Errorf("dimensions %d: want 0 (the model's) to %d", o.Dims, MaxDims)
	case o.Batch < 0 || o.Batch > maxBatch:
		return fmt.Errorf("batch %d: want 0 (the default) to %d", o.Batch, maxBatch)
	case o.Backend == OpenAI && o.Endpoint == "":
		return errors.New("name the OpenAI-compatible endpoint's base URL (such as https://api.openai.com/v1)")
	case o.Backend == Bedrock && o.Region == "":
		return errors.New("name the AWS region of Bedrock")
	case o.Backend == Bedrock && o.Credentials == nil:
		return errors.New("no AWS credentials for Bedrock")
	case o.Backend == Bedrock && o.APIKey != "":
		return errors.New("an API key is for an OpenAI-compatible endpoint: Bedrock calls are signed with AWS credentials")
	}
	return CheckEndpoint(o.Endpoint)
}

// CheckEndpoint refuses a URL that is not plain http(s) or that could
// hold a secret (a user, a password, a query): the endpoint is recorded in
// the bundle. An empty one is no URL, and no error.
func CheckEndpoint(endpoint string) error {
	if endpoint == "" {
		return nil
	}
	u, err := url.Parse(endpoint)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return fmt.Errorf("endpoint %q: want an http:// or https:// URL", redacted(endpoint))
	case u.User != nil || u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("endpoint %s: a URL with a user, password, query or fragment is refused (it is recorded in the bundle; pass a key with the API key's variable)", redacted(endpoint))
	}
	return nil
}

// redacted is u without a password or query, as errors may show it.
func redacted(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return "(an endpoint that is no URL)"
	}
	parsed.RawQuery = ""
	return parsed.Redacted()
}

// Model is what embeds, as a bundle records it; Dims is the dimensions
// asked for (0: the model's own, known once it answers).
func (c *Client) Model() Model { return c.model }

func (c *Client) String() string {
	return fmt.Sprintf("%s model %s at %s", c.model.Backend, c.model.Name, c.endpoint())
}

func (c *Client) endpoint() string {
	if c.model.Endpoint == "" && c.model.Backend == Bedrock {
		return "https://bedrock-runtime." + c.model.Region + ".amazonaws.com"
	}
	return c.model.Endpoint
}

// EmbedQuery returns the vector of one text (cut to MaxTextBytes), with
// one call and no retry: a query's deadline is the caller's context.
func (c *Client) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	once := c.calls
	once.Retries = 0
	vecs, err := c.embed(ctx, once, []string{text})
	if err != nil {
		return nil, err
	}
	return vecs[0], nil
}

// embed is one call, tried as calls say: the vectors of texts, checked,
// or an error naming the endpoint (without the key).
func (c *Client) embed(ctx context.Context, calls Calls, texts []string) ([][]float32, error) {
	cut := make([]string, len(texts))
	for i, t := range texts {
		cut[i] = Cut(t)
	}
	vecs, err := c.send(ctx, calls, cut)
	if err == nil {
		err = c.checkVectors(vecs, len(texts))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c, c.redact(withHint(err)))
	}
	return vecs, nil
}

// redact takes the API key out of an error, in every form package redact
// knows (an endpoint may echo it). What a refusal quotes is redacted
// already (Calls.Post takes out the credentials a call sent); this is for
// the rest of the error.
func (c *Client) redact(err error) error {
	msg := err.Error()
	if r := c.redactor.Replace(msg); r != msg {
		return errors.New(r)
	}
	return err
}

// Cut is text cut to MaxTextBytes at a character boundary.
func Cut(text string) string {
	if len(text) <= MaxTextBytes {
		return text
	}
	cut := text[:MaxTextBytes]
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	return cut
}

// checkVectors checks an answer's vectors: n of them, of equal
// dimensions (those asked for, when asked), at most MaxDims, finite and
// not zero.
func (c *Client) checkVectors(vecs [][]float32, n int) error {
	if len(vecs) != n {
		return fmt.Errorf("the answer holds %d vectors for %d texts", len(vecs), n)
	}
	for i, v := range vecs {
		switch {
		case len(v) == 0 || len(v) > MaxDims:
			return fmt.Errorf("vector %d has %d dimensions: want 1 to %d", i, len(v), MaxDims)
		case c.model.Dims > 0 && len(v) != c.model.Dims:
			return fmt.Errorf("vector %d has %d dimensions: %d were asked for", i, len(v), c.model.Dims)
		case len(v) != len(vecs[0]):
			return fmt.Errorf("vector %d has %d dimensions, vector 0 %d", i, len(v), len(vecs[0]))
		}
		zero := true
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("vector %d holds %v", i, x)
			}
			zero = zero && x == 0
		}
		if zero {
			return fmt.Errorf("vector %d is zero", i)
		}
	}
	return nil
}

// maxAnswer bounds the answer to a call asking for n vectors.
func (c *Client) maxAnswer(n int) int64 {
	dims := c.model.Dims
	if dims == 0 {
		dims = MaxDims
	}
	return int64(n)*int64(dims)*maxNumberBytes + answerSlack
}

// openAI is one call to an OpenAI-compatible endpoint: POST
// BASE/embeddings with the texts as input, the vectors in the order of
// their index.
func (c *Client) openAI(ctx context.Context, calls Calls, texts []string) ([][]float32, error) {
	req := map[string]any{"model": c.model.Name, "input": texts, "encoding_format": "float"}
	if c.model.Dims > 0 {
		req["dimensions"] = c.model.Dims
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	answer, err := calls.post(ctx, Call{URL: c.model.Endpoint + "/embeddings", Body: body, MaxAnswer: c.maxAnswer(len(texts)),
		Prepare: func(r *http.Request) error {
			if c.apiKey != "" {
				r.Header.Set("Authorization", "Bearer "+c.apiKey)
			}
			return nil
		}})
	if err != nil {
		return nil, err
	}
	return openAIVectors(answer, len(texts))
}

// openAIVectors reads an OpenAI embeddings answer: data[i].embedding by
// data[i].index, each index of 0…n-1 once.
func openAIVectors(answer []byte, n int) ([][]float32, error) {
	var a struct {
		Data []struct {
			Index     *int      `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(answer, &a); err != nil {
		return nil, fmt.Errorf("the answer is not an embeddings list: %w", err)
	}
	if len(a.Data) != n {
		return nil, fmt.Errorf("the answer holds %d embeddings for %d texts", len(a.Data), n)
	}
	out := make([][]float32, n)
	seen := make([]bool, n)
	for _, d := range a.Data {
		if d.Index == nil || *d.Index < 0 || *d.Index >= n || seen[*d.Index] {
			return nil, errors.New("the answer's data do not have the indices 0 to n-1 once each")
		}
		seen[*d.Index] = true
		out[*d.Index] = d.Embedding
	}
	return out, nil
}
