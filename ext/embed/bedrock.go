package embed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// bedrock calls Titan text embeddings on Amazon Bedrock: POST
// /model/MODEL/invoke with {"inputText", "dimensions", "normalize"}, one
// text a call, signed with SigV4 (service bedrock).
type bedrock struct {
	client      *Client
	credentials func(context.Context) (aws.Credentials, error)
}

// embed asks for the vector of texts[0] (Bedrock takes one text a call).
func (b *bedrock) embed(ctx context.Context, calls Calls, texts []string) ([][]float32, error) {
	if len(texts) != 1 {
		return nil, fmt.Errorf("one text a call to Bedrock, not %d", len(texts))
	}
	req := map[string]any{"inputText": texts[0], "normalize": true}
	if b.client.model.Dims > 0 {
		req["dimensions"] = b.client.model.Dims
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	answer, err := calls.post(ctx, Call{
		URL:       b.client.endpoint() + "/model/" + EscapeLabel(b.client.model.Name) + "/invoke",
		Body:      body,
		MaxAnswer: b.client.maxAnswer(1),
		Prepare:   SignBedrock(b.credentials, b.client.model.Region, body),
	})
	if err != nil {
		return nil, err
	}
	var a struct {
		Embedding []float32 `json:"embedding"`
	}
	if err := json.Unmarshal(answer, &a); err != nil {
		return nil, fmt.Errorf("the answer is not a Titan embedding: %w", err)
	}
	if a.Embedding == nil {
		return nil, errors.New("the answer is not a Titan embedding: no embedding")
	}
	return [][]float32{a.Embedding}, nil
}

// SignBedrock returns a Call's Prepare that signs a call of body to
// Amazon Bedrock in region with SigV4 (service "bedrock"), with the
// credentials of the moment (a provider caches and refreshes them): the
// one signing of Bedrock calls, the embeddings' and the request drafts'.
func SignBedrock(credentials func(context.Context) (aws.Credentials, error), region string, body []byte) func(*http.Request) error {
	sum := sha256.Sum256(body)
	payloadHash := hex.EncodeToString(sum[:])
	return func(r *http.Request) error {
		creds, err := credentials(r.Context())
		if err != nil {
			return fmt.Errorf("AWS credentials: %w", err)
		}
		if err := v4.NewSigner().SignHTTP(r.Context(), creds, r, payloadHash, "bedrock", region, time.Now()); err != nil {
			return fmt.Errorf("signing the call: %w", err)
		}
		return nil
	}
}

// EscapeLabel escapes a path segment as the AWS SDKs escape a URI label:
// every byte but the unreserved ones (a model ID's ":" becomes %3A, an
// ARN's "/" %2F).
func EscapeLabel(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
