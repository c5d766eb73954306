package redirect

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/redirect/redirecttest"
)

// TestSameOrigin: a POST with credentials in headers, answered 301, 302,
// 303, 307 or 308 towards another port, another host or another scheme,
// is refused with a *RefusedError naming the status and the difference
// (not the Location), and nothing arrives there; within the origin it is followed (307 and
// 308 with the body), its headers going with it.
func TestSameOrigin(t *testing.T) {
	for _, status := range redirecttest.Statuses {
		for _, target := range redirecttest.Elsewhere(t, nil, "/there") {
			t.Run(fmt.Sprintf("%d %s", status, target.Why), func(t *testing.T) {
				origin := redirecttest.Origin(t, status, target)
				_, err := post(Client(origin.Client()), origin.URL+"/here")
				var refused *RefusedError
				if !errors.As(err, &refused) || refused.Status != status || refused.Why != target.Why {
					t.Errorf("got %v, want a *RefusedError of %d, %s", err, status, target.Why)
				}
				if refused != nil && strings.Contains(refused.Error(), "/there") {
					t.Errorf("the refusal %q quotes the Location (http.Client's *url.Error around it does)", refused)
				}
				if seen := target.Seen(); len(seen) > 0 {
					t.Errorf("%s received %d requests, the first with headers %v", target.Why, len(seen), seen[0].Header)
				}
			})
		}
		t.Run(fmt.Sprintf("%d same origin", status), func(t *testing.T) {
			ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "arrived") })
			origin := redirecttest.SameOrigin(t, status, "/here", "/there", ok)
			body, err := post(Client(nil), origin.URL+"/here")
			if err != nil || body != "arrived" {
				t.Fatalf("got %q, %v; want the redirect followed", body, err)
			}
			seen := origin.Seen()
			last := seen[len(seen)-1]
			keepsBody := status == http.StatusTemporaryRedirect || status == http.StatusPermanentRedirect
			if len(seen) != 2 || last.Path != "/there" || last.Header.Get("X-Api-Key") != "key-123456789" || keepsBody != (last.Body == "the query") {
				t.Errorf("got %+v, want /here then /there with the key (and for 307 and 308 the body)", seen)
			}
		})
	}
}

// TestTooManyRedirects: a chain within the origin stops after
// MaxRedirects.
func TestTooManyRedirects(t *testing.T) {
	origin := redirecttest.SameOrigin(t, http.StatusFound, "/loop", "/loop", nil)
	_, err := post(Client(nil), origin.URL+"/loop")
	var refused *RefusedError
	if !errors.As(err, &refused) || refused.Why != "too many redirects" || len(origin.Seen()) != MaxRedirects+1 {
		t.Errorf("got %v after %d requests, want too many redirects after %d", err, len(origin.Seen()), MaxRedirects+1)
	}
}

// TestClient: Client copies the client it is given (its timeout and
// transport kept) and never changes it.
func TestClient(t *testing.T) {
	base := &http.Client{Timeout: 7}
	c := Client(base)
	if c == base || c.Timeout != 7 || c.CheckRedirect == nil || base.CheckRedirect != nil {
		t.Errorf("Client(%+v) = %+v", base, c)
	}
	if Client(nil).CheckRedirect == nil || http.DefaultClient.CheckRedirect != nil {
		t.Error("Client(nil) has no policy, or changed http.DefaultClient")
	}
}

func post(c *http.Client, url string) (string, error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader("the query"))
	if err != nil {
		return "", err
	}
	req.Header.Set("X-Api-Key", "key-123456789")
	req.Header.Set("Authorization", "Bearer token-123456789")
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return string(body), err
}
