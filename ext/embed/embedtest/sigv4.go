package embedtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

var authHeader = regexp.MustCompile(`^AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/([^/]+)/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$`)

// CheckSignature says what is wrong with r's SigV4 signature ("" when
// nothing): the scope must be region and service bedrock, and signing the
// request again, as received (its body), with creds must give the same
// signature. The scripted Bedrock endpoints of the tests (this server's,
// infra/requests') check their calls with it.
func CheckSignature(r *http.Request, body []byte, region string, creds aws.Credentials) string {
	m := authHeader.FindStringSubmatch(r.Header.Get("Authorization"))
	switch {
	case m == nil:
		return "no SigV4 Authorization header"
	case m[1] != creds.AccessKeyID || m[3] != region || m[4] != "bedrock":
		return "scope " + m[1] + "/" + m[3] + "/" + m[4] + ", want " + creds.AccessKeyID + "/" + region + "/bedrock"
	case r.Header.Get("X-Amz-Security-Token") != creds.SessionToken:
		return "no session token"
	}
	when, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return "no X-Amz-Date"
	}
	again, _ := http.NewRequest(r.Method, "http://"+r.Host+r.URL.EscapedPath(), bytes.NewReader(body))
	for _, h := range strings.Split(m[5], ";") {
		if h != "host" && h != "content-length" {
			again.Header.Set(h, r.Header.Get(h))
		}
	}
	sum := sha256.Sum256(body)
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, again, hex.EncodeToString(sum[:]), "bedrock", region, when); err != nil {
		return err.Error()
	}
	if got := authHeader.FindStringSubmatch(again.Header.Get("Authorization")); got == nil || got[6] != m[6] {
		return "the signature does not match the request"
	}
	return ""
}
