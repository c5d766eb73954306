package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/mcpsearch/mcpsearch/ext/auth"
	"github.com/mcpsearch/mcpsearch/ext/server"
)

// lambdaHandler adapts Lambda Function URL and API Gateway HTTP API (v2)
// events, which share one shape, to h. The response is buffered: JSON-RPC
// errors travel in the body with the status h chose; a Go error (which
// Lambda turns into a 5xx) is returned only for an event that cannot be
// turned into an HTTP request.
func lambdaHandler(h http.Handler) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		if lc, ok := lambdacontext.FromContext(ctx); ok && lc.AwsRequestID != "" {
			ctx = server.WithRequestID(ctx, lc.AwsRequestID) // logged and returned as X-Request-Id
		}
		req, err := httpRequest(ctx, ev)
		if err != nil {
			return events.APIGatewayV2HTTPResponse{}, err
		}
		rec := newRecorder()
		h.ServeHTTP(rec, req)
		return rec.event(), nil
	}
}

// httpRequest turns an event into the request a plain HTTP server would
// have received.
func httpRequest(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (*http.Request, error) {
	body := []byte(ev.Body)
	if ev.IsBase64Encoded {
		var err error
		if body, err = base64.StdEncoding.DecodeString(ev.Body); err != nil {
			return nil, fmt.Errorf("event body: %w", err)
		}
	}
	method := ev.RequestContext.HTTP.Method
	if method == "" {
		return nil, fmt.Errorf("event is not a Function URL or HTTP API v2 event: no requestContext.http.method")
	}
	req, err := http.NewRequestWithContext(withIdentity(ctx, ev.RequestContext.Authorizer), method, "/", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("event request: %w", err)
	}
	req.URL = &url.URL{Path: stripStage(ev.RawPath, ev.RequestContext.Stage), RawQuery: ev.RawQueryString}
	req.RequestURI = req.URL.RequestURI()
	for k, v := range ev.Headers {
		req.Header.Set(k, v)
	}
	if len(ev.Cookies) > 0 {
		req.Header.Set("Cookie", strings.Join(ev.Cookies, "; "))
	}
	req.Host = ev.RequestContext.DomainName
	req.RemoteAddr = ev.RequestContext.HTTP.SourceIP
	return req, nil
}

// withIdentity puts the identity API Gateway's JWT authorizer or Lambda's
// IAM auth established into ctx, for auth mode aws.
func withIdentity(ctx context.Context, a *events.APIGatewayV2HTTPRequestContextAuthorizerDescription) context.Context {
	switch {
	case a == nil:
		return ctx
	case a.JWT != nil:
		return auth.WithAWSIdentity(ctx, auth.AWSIdentity{JWTClaims: a.JWT.Claims, JWTScopes: a.JWT.Scopes})
	case a.IAM != nil:
		return auth.WithAWSIdentity(ctx, auth.AWSIdentity{IAM: &auth.IAMIdentity{UserARN: a.IAM.UserARN, AccountID: a.IAM.AccountID}})
	}
	return ctx
}

// stripStage removes the stage prefix an HTTP API puts in front of the
// path for stages other than $default.
func stripStage(path, stage string) string {
	if path == "" {
		path = "/"
	}
	if stage == "" || stage == "$default" {
		return path
	}
	if rest, ok := strings.CutPrefix(path, "/"+stage); ok && (rest == "" || rest[0] == '/') {
		return "/" + strings.TrimPrefix(rest, "/")
	}
	return path
}

// recorder buffers a response for the Lambda reply. As with a real
// connection, headers changed after the status is written are not sent.
type recorder struct {
	header http.Header
	sent   http.Header // header as it was when the status was written
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status, r.sent = status, r.header.Clone()
	}
}

func (r *recorder) event() events.APIGatewayV2HTTPResponse {
	r.WriteHeader(http.StatusOK) // a handler that wrote nothing answered 200
	resp := events.APIGatewayV2HTTPResponse{StatusCode: r.status, Headers: map[string]string{}}
	for k, v := range r.sent {
		if k == "Set-Cookie" {
			resp.Cookies = v
			continue
		}
		resp.Headers[k] = strings.Join(v, ", ")
	}
	if utf8.Valid(r.body.Bytes()) {
		resp.Body = r.body.String()
	} else {
		resp.Body, resp.IsBase64Encoded = base64.StdEncoding.EncodeToString(r.body.Bytes()), true
	}
	return resp
}

// reportInitError tells the Lambda runtime API why the function cannot
// start, so that the invocation fails with that reason rather than with a
// bare exit status.
func reportInitError(runtimeAPI string, cause error, logger *slog.Logger) {
	body, _ := json.Marshal(map[string]string{"errorType": "Runtime.InitError", "errorMessage": cause.Error()})
	client := &http.Client{Timeout: 2 * time.Second}
	resp, err := client.Post("http://"+runtimeAPI+"/2018-06-01/runtime/init/error", "application/json", bytes.NewReader(body))
	if err != nil {
		logger.Error("reporting the init error", "err", err)
		return
	}
	resp.Body.Close()
}
