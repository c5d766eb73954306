package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/mcpsearch/mcpsearch/ext/redirect"
)

// secretsSource is where loadSecrets reads a secret: the Secrets Manager
// endpoint and the credentials that sign the request. The client follows
// redirects within the endpoint's origin only (redirect.SameOrigin), so
// that the signed request and its session token go nowhere else.
type secretsSource struct {
	endpoint string // "" means https://secretsmanager.<region of the ARN>.amazonaws.com
	creds    aws.Credentials
	client   *http.Client
}

// loadSecrets reads the secret arn (a JSON object of strings) from AWS
// Secrets Manager and sets each entry as an environment variable, unless
// the variable is already set: upstream credentials (${VAR}) are then read
// from it. It returns the names it set.
func loadSecrets(ctx context.Context, arn string, src secretsSource) ([]string, error) {
	raw, err := getSecretValue(ctx, arn, src)
	if err != nil {
		return nil, fmt.Errorf("MCPSEARCH_SECRETS_ARN: %w", err)
	}
	var vars map[string]string
	if err := json.Unmarshal([]byte(raw), &vars); err != nil {
		return nil, fmt.Errorf("MCPSEARCH_SECRETS_ARN: the secret is not a JSON object of strings")
	}
	var set []string
	for name, value := range vars {
		if _, exists := os.LookupEnv(name); exists || name == "" || strings.ContainsAny(name, "=\x00") {
			continue
		}
		if err := os.Setenv(name, value); err != nil {
			return nil, fmt.Errorf("MCPSEARCH_SECRETS_ARN: setting %s: %w", name, err)
		}
		set = append(set, name)
	}
	sort.Strings(set)
	return set, nil
}

// getSecretValue calls GetSecretValue (JSON 1.1 protocol, SigV4-signed)
// and returns the secret string.
func getSecretValue(ctx context.Context, arn string, src secretsSource) (string, error) {
	region, err := arnRegion(arn)
	if err != nil {
		return "", err
	}
	endpoint := src.endpoint
	if endpoint == "" {
		endpoint = "https://secretsmanager." + region + ".amazonaws.com/"
	}
	body, _ := json.Marshal(map[string]string{"SecretId": arn})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", "secretsmanager.GetSecretValue")
	if src.creds.SessionToken != "" {
		req.Header.Set("X-Amz-Security-Token", src.creds.SessionToken)
	}
	sum := sha256.Sum256(body)
	if err := v4.NewSigner().SignHTTP(ctx, src.creds, req, hex.EncodeToString(sum[:]), "secretsmanager", region, time.Now()); err != nil {
		return "", fmt.Errorf("signing GetSecretValue: %w", err)
	}
	resp, err := redirect.Client(src.client).Do(req)
	if refused := (*redirect.RefusedError)(nil); errors.As(err, &refused) {
		return "", fmt.Errorf("GetSecretValue: %w", refused) // without the Location http.Client quotes
	}
	if err != nil {
		return "", fmt.Errorf("GetSecretValue: %w", err)
	}
	defer resp.Body.Close()
	return secretString(resp)
}

// secretString reads a GetSecretValue answer.
func secretString(resp *http.Response) (string, error) {
	var out struct {
		SecretString *string
		Type         string `json:"__type"`
		Message      string `json:"message"`
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("GetSecretValue: %w", err)
	}
	json.Unmarshal(data, &out)
	switch {
	case resp.StatusCode != http.StatusOK:
		return "", fmt.Errorf("GetSecretValue: HTTP %d %s: %s", resp.StatusCode, out.Type, out.Message)
	case out.SecretString == nil:
		return "", fmt.Errorf("GetSecretValue: the secret has no SecretString (binary secrets are not read)")
	}
	return *out.SecretString, nil
}

// arnRegion returns the region of a Secrets Manager ARN.
func arnRegion(arn string) (string, error) {
	parts := strings.SplitN(arn, ":", 7)
	if len(parts) < 7 || parts[0] != "arn" || parts[2] != "secretsmanager" || parts[3] == "" || parts[5] != "secret" {
		return "", fmt.Errorf("%q is not a Secrets Manager secret ARN (arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME)", arn)
	}
	return parts[3], nil
}
