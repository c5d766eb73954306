package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"

	"github.com/mcpsearch/mcpsearch/ext/embed"
	"github.com/mcpsearch/mcpsearch/index"
)

// EmbedFlags are the flags of build, package and eval that name a hosted
// embeddings endpoint: each item is embedded with it into the bundle's
// hosted.bin, beside the word vectors (index README, "Hosted vectors"),
// and eval embeds each query with it too.
type EmbedFlags struct {
	backend, endpoint, model, apiKeyEnv, region *string
	dims, batch, concurrency, retries           *int
	timeout                                     *time.Duration
}

func NewEmbedFlags(fs *FlagSet) *EmbedFlags {
	return &EmbedFlags{
		backend:     fs.String("embed-backend", "", "also embed each item with a hosted model: openai (an OpenAI-compatible /v1/embeddings) or bedrock (Titan text embeddings); none: the word vectors only"),
		endpoint:    fs.String("embed-endpoint", "", "the OpenAI-compatible API's base `URL` (https://api.openai.com/v1); with bedrock, replaces https://bedrock-runtime.REGION.amazonaws.com. Recorded in the bundle: no user, password or query"),
		model:       fs.String("embed-model", "", "the embeddings model's `NAME` (bedrock: a model ID such as amazon.titan-embed-text-v2:0)"),
		apiKeyEnv:   fs.String("embed-api-key-env", "", "the environment `VARIABLE` holding the endpoint's API key (openai; never written to the bundle)"),
		region:      fs.String("embed-region", "", "bedrock's AWS `REGION` (none: the AWS configuration's, e.g. AWS_REGION)"),
		dims:        fs.Int("embed-dims", 0, "ask for vectors of `N` dimensions (0: the model's own)"),
		batch:       fs.Int("embed-batch", embed.DefaultBatch, "texts a call to an OpenAI-compatible endpoint carries (`N`)"),
		concurrency: fs.Int("embed-concurrency", embed.DefaultConcurrency, "calls to the endpoint at once (`N`)"),
		retries:     fs.Int("embed-retries", 3, "try a call answered 429 or 5xx again up to `N` times, waiting longer each time"),
		timeout:     fs.Duration("embed-timeout", embed.DefaultTimeout, "give up a try of a call after `DURATION`"),
	}
}

// Hosted is what the flags ask the build to embed with, or nil when they
// name no backend; it reads the key or the AWS credentials.
func (f *EmbedFlags) Hosted(ctx context.Context) (*index.HostedItems, error) {
	c, err := f.Client(ctx)
	if c == nil || err != nil {
		return nil, err
	}
	return HostedItems(c), nil
}

// HostedItems is what a build embeds its items with: c.
func HostedItems(c *embed.Client) *index.HostedItems {
	return &index.HostedItems{Model: index.HostedModel(c.Model()), Embed: c.EmbedItems}
}

// Client is the embeddings client the flags name, or nil when they name
// no backend; it reads the key or the AWS credentials.
func (f *EmbedFlags) Client(ctx context.Context) (*embed.Client, error) {
	if *f.backend == "" {
		if *f.endpoint != "" || *f.model != "" || *f.apiKeyEnv != "" || *f.region != "" || *f.dims != 0 {
			return nil, fmt.Errorf("%w: the --embed-… flags need --embed-backend openai or bedrock", ErrUsage)
		}
		return nil, nil
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	o := embed.Options{Backend: *f.backend, Endpoint: *f.endpoint, Model: *f.model, Dims: *f.dims, Batch: *f.batch,
		Concurrency: *f.concurrency, Calls: &embed.Calls{Timeout: *f.timeout, Retries: *f.retries}}
	switch *f.backend {
	case embed.OpenAI:
		if *f.apiKeyEnv != "" {
			if o.APIKey = os.Getenv(*f.apiKeyEnv); o.APIKey == "" {
				return nil, fmt.Errorf("--embed-api-key-env: the environment variable %s is not set", *f.apiKeyEnv)
			}
		}
	case embed.Bedrock:
		region, creds, err := AWSCredentials(ctx, *f.region, "--embed-region")
		if err != nil {
			return nil, err
		}
		o.Region, o.Credentials = region, creds.Retrieve
	}
	c, err := embed.New(o)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUsage, err)
	}
	return c, nil
}

// check refuses flags that do not go together.
func (f *EmbedFlags) check() error {
	switch {
	case *f.backend != embed.OpenAI && *f.backend != embed.Bedrock:
		return fmt.Errorf("%w: --embed-backend %q: want openai or bedrock", ErrUsage, *f.backend)
	case *f.backend == embed.Bedrock && *f.apiKeyEnv != "":
		return fmt.Errorf("%w: --embed-api-key-env is for openai: Bedrock calls are signed with AWS credentials", ErrUsage)
	case *f.backend == embed.OpenAI && *f.region != "":
		return fmt.Errorf("%w: --embed-region is for bedrock", ErrUsage)
	case *f.concurrency < 1 || *f.concurrency > MaxConcurrency:
		return fmt.Errorf("%w: --embed-concurrency %d: want 1 to %d", ErrUsage, *f.concurrency, MaxConcurrency)
	case *f.retries < 0 || *f.retries > MaxRetries || *f.timeout <= 0:
		return fmt.Errorf("%w: --embed-timeout must be positive, --embed-retries 0 to %d", ErrUsage, MaxRetries)
	}
	return nil
}

// AWSCredentials are the region (regionFlag's, else the configuration's)
// and the credentials the AWS credential chain finds (environment, shared
// files, SSO, web identity, container or instance role), checked once.
func AWSCredentials(ctx context.Context, region, regionFlag string) (string, aws.CredentialsProvider, error) {
	var opts []func(*config.LoadOptions) error
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return "", nil, fmt.Errorf("AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		return "", nil, fmt.Errorf("%w: Bedrock: name the region: %s or AWS_REGION", ErrUsage, regionFlag)
	}
	if cfg.Credentials == nil {
		return "", nil, fmt.Errorf("AWS credentials: none found")
	}
	if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
		return "", nil, fmt.Errorf("AWS credentials: %w", err)
	}
	return cfg.Region, cfg.Credentials, nil
}
