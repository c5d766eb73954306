package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/requests"
)

// draftFlags are the flags of mcpsearch requests draft.
type draftFlags struct {
	catalog, out                   *string
	endpoint, model, apiKeyEnv     *string
	bedrock                        *bool
	region                         *string
	servers, items                 *string
	all                            *bool
	limit, count, concurrency, try *int
	timeout                        *time.Duration
}

func newDraftFlags(fs *cli.FlagSet) *draftFlags {
	return &draftFlags{
		catalog:     fs.String("catalog", "", "catalog `DIR` whose items get requests"),
		out:         fs.String("out", "", "`DIR` the drafts are written to, one requests file per server (SERVER.json), for review"),
		endpoint:    fs.String("endpoint", "", "an OpenAI-compatible API's base `URL` (http://127.0.0.1:8000/v1); with --bedrock, replaces https://bedrock-runtime.REGION.amazonaws.com"),
		model:       fs.String("model", "", "the model's `NAME` (with --bedrock, a model ID, inference profile ID or ARN)"),
		apiKeyEnv:   fs.String("api-key-env", "", "the environment `VARIABLE` holding the endpoint's API key (none: no key is sent)"),
		bedrock:     fs.Bool("bedrock", false, "ask Amazon Bedrock (Converse API, SigV4 with the AWS credential chain) instead of an OpenAI-compatible endpoint"),
		region:      fs.String("region", "", "with --bedrock, the AWS `REGION` (none: the AWS configuration's, e.g. AWS_REGION)"),
		servers:     fs.String("server", "", "only the items of these `SERVERS` (comma-separated)"),
		items:       fs.String("item", "", "only these `ITEMS` (comma-separated canonical or upstream names), drafted whether or not they have requests"),
		all:         fs.Bool("all", false, "draft items that carry requests, or are in the drafts already, too"),
		limit:       fs.Int("limit", 0, "draft at most `N` items (0: all selected)"),
		count:       fs.Int("count", requests.DefaultCount, "ask the model for `N` requests an item (at most 32)"),
		concurrency: fs.Int("concurrency", requests.DefaultConcurrency, "ask for `N` items at once"),
		try:         fs.Int("retries", defaultRetries, "try a call answered 429 or 5xx again up to `N` times, waiting longer each time"),
		timeout:     fs.Duration("timeout", requests.DefaultTimeout, "give up a try of a call to the model after `DURATION`"),
	}
}

// runRequestsDraft asks a language model to draft requests for a
// catalog's items and writes them to requests files for review.
func runRequestsDraft(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("requests draft", stdout, stderr)
	f := newDraftFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := f.check(fs); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	model, err := f.newModel(ctx)
	if err != nil {
		return err
	}
	done, err := requests.Draft(ctx, *f.catalog, *f.out, model, &requests.DraftOptions{
		Servers: cli.SplitList(*f.servers), Items: cli.SplitList(*f.items), All: *f.all, Limit: *f.limit,
		Count: *f.count, Concurrency: *f.concurrency, Notes: stderr,
	})
	switch {
	case done != nil && done.Items > 0:
		fmt.Fprintf(stdout, "drafted the requests of %d items into %s\nreview them, then: mcpsearch requests apply --catalog %s %s\n",
			done.Items, strings.Join(done.Files, ", "), *f.catalog, strings.Join(done.Files, " "))
	case err == nil:
		fmt.Fprintln(stdout, "nothing to draft: every item selected has requests, or is in the drafts already (--all drafts them anew)")
	}
	return err
}

// check refuses flags that do not go together.
func (f *draftFlags) check(fs *cli.FlagSet) error {
	if err := fs.Require("catalog", "out", "model"); err != nil {
		return err
	}
	switch {
	case !*f.bedrock && *f.endpoint == "":
		return fmt.Errorf("%w: name the model's endpoint: --endpoint URL (OpenAI-compatible) or --bedrock", cli.ErrUsage)
	case *f.bedrock && *f.apiKeyEnv != "":
		return fmt.Errorf("%w: --api-key-env is for --endpoint: Bedrock calls are signed with AWS credentials", cli.ErrUsage)
	case !*f.bedrock && *f.region != "":
		return fmt.Errorf("%w: --region is for --bedrock", cli.ErrUsage)
	case *f.all && *f.items != "":
		return fmt.Errorf("%w: --all and --item: name the items, or ask for all", cli.ErrUsage)
	case *f.count < 1 || *f.count > catalog.MaxRequestsPerItem:
		return fmt.Errorf("%w: --count %d: want 1 to %d", cli.ErrUsage, *f.count, catalog.MaxRequestsPerItem)
	case *f.concurrency < 1 || *f.concurrency > cli.MaxConcurrency:
		return fmt.Errorf("%w: --concurrency %d: want 1 to %d", cli.ErrUsage, *f.concurrency, cli.MaxConcurrency)
	case *f.limit < 0 || *f.try < 0 || *f.try > cli.MaxRetries || *f.timeout <= 0:
		return fmt.Errorf("%w: --timeout must be positive, --limit not negative, --retries 0 to %d", cli.ErrUsage, cli.MaxRetries)
	}
	return checkEndpoint("--endpoint", *f.endpoint)
}

// defaultRetries is how many times a call answered 429 or 5xx is tried
// again unless --retries says otherwise.
const defaultRetries = 3

// checkEndpoint refuses an endpoint (given by flag) that is not an
// http:// or https:// URL; none is fine.
func checkEndpoint(flag, endpoint string) error {
	if endpoint == "" {
		return nil
	}
	if u, err := url.Parse(endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: %s %q: want an http:// or https:// URL", cli.ErrUsage, flag, endpoint)
	}
	return nil
}

// newModel is the model the flags name, with its key or credentials.
func (f *draftFlags) newModel(ctx context.Context) (requests.Model, error) {
	calls := &requests.Calls{Timeout: *f.timeout, Retries: *f.try}
	if *f.bedrock {
		return f.bedrockModel(ctx, calls)
	}
	var key string
	if *f.apiKeyEnv != "" {
		if key = os.Getenv(*f.apiKeyEnv); key == "" {
			return nil, fmt.Errorf("--api-key-env: the environment variable %s is not set", *f.apiKeyEnv)
		}
	}
	return &requests.OpenAI{Endpoint: *f.endpoint, Model: *f.model, APIKey: key, Calls: calls}, nil
}

// bedrockModel is the Bedrock model of the flags, signed with the
// credentials the AWS credential chain finds (environment, shared files,
// SSO, web identity, container or instance role).
func (f *draftFlags) bedrockModel(ctx context.Context, calls *requests.Calls) (requests.Model, error) {
	region, creds, err := cli.AWSCredentials(ctx, *f.region, "--region")
	if err != nil {
		return nil, err
	}
	return &requests.Bedrock{Region: region, Model: *f.model, Endpoint: *f.endpoint, Credentials: creds, Calls: calls}, nil
}
