package main

import (
	"cmp"
	"context"
	"log/slog"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/mcpsearch/mcpsearch/ext/embed"
	"github.com/mcpsearch/mcpsearch/index"
)

// embedConfig is how the function embeds queries for a bundle built with
// hosted vectors (mcpsearch build --embed-…): the model, its dimensions
// and its endpoint are the bundle's; the key, or the AWS credentials for
// Bedrock, are the function's own, never the bundle's.
type embedConfig struct {
	Off      bool          // MCPSEARCH_EMBED=off: never embed queries
	APIKey   string        // MCPSEARCH_EMBED_API_KEY: an OpenAI-compatible endpoint's key
	Endpoint string        // MCPSEARCH_EMBED_ENDPOINT: replaces the bundle's (a VPC endpoint, a gateway)
	Timeout  time.Duration // MCPSEARCH_EMBED_TIMEOUT; 0: index.DefaultHostedTimeout
}

// wireHosted has the index embed each query with the model of its hosted
// vectors, when the bundle has them and the function has the key (an
// OpenAI-compatible endpoint) or AWS credentials (Bedrock), and logs what
// it chose. Each query that falls back to the word vectors is logged at
// warn ("hosted query vector unavailable", with its reason: a metric
// filter counts them) and counted (index.HostedStats).
func wireHosted(cfg *Config, idx *index.Index, logger *slog.Logger) error {
	m, ok := idx.HostedModel()
	if !ok {
		return nil
	}
	unused := func(why string) error {
		logger.Warn("hosted vectors unused: searches rank with the word vectors", "model", m.String(), "why", why)
		return nil
	}
	o := embed.Options{Backend: m.Backend, Model: m.Name, Dims: m.Dims, Region: m.Region, Endpoint: cmp.Or(cfg.Embed.Endpoint, m.Endpoint),
		Calls: &embed.Calls{Timeout: cmp.Or(cfg.Embed.Timeout, index.DefaultHostedTimeout)}}
	switch {
	case cfg.Embed.Off:
		return unused("MCPSEARCH_EMBED is off")
	case m.Backend == embed.OpenAI && cfg.Embed.APIKey == "":
		return unused("MCPSEARCH_EMBED_API_KEY is not set")
	case m.Backend == embed.Bedrock && cfg.AWS.AccessKeyID == "":
		return unused("no AWS credentials (AWS_ACCESS_KEY_ID) to sign Bedrock calls with")
	case m.Backend == embed.OpenAI:
		o.APIKey = cfg.Embed.APIKey
	case m.Backend == embed.Bedrock:
		creds := cfg.AWS
		o.Credentials = func(context.Context) (aws.Credentials, error) { return creds, nil }
	}
	c, err := embed.New(o)
	if err != nil {
		return err
	}
	err = idx.UseHosted(index.HostedOptions{Embed: c.EmbedQuery, Timeout: cfg.Embed.Timeout, OnFallback: func(reason string, err error) {
		logger.Warn("hosted query vector unavailable; ranked with the word vectors", "reason", reason, "err", err)
	}})
	if err != nil {
		return err
	}
	logger.Info("hosted vectors: queries embedded by the bundle's model", "model", m.String(), "endpoint", endpointHost(o.Endpoint, m),
		"timeout", cmp.Or(cfg.Embed.Timeout, index.DefaultHostedTimeout).String())
	return nil
}

// endpointHost is the host queries are sent to, as the start logs it.
func endpointHost(endpoint string, m index.HostedModel) string {
	if endpoint == "" {
		return "bedrock-runtime." + m.Region + ".amazonaws.com"
	}
	if u, err := url.Parse(endpoint); err == nil {
		return u.Host
	}
	return ""
}
