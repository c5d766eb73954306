package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/requests"
)

// buildDraftFlags are the drafting flags of build and package: the model
// that drafts requests for the items without any, and where the drafts
// are kept (requests.DraftCached).
type buildDraftFlags struct {
	model, apiKeyEnv, region, endpoint, dir *string
}

func newBuildDraftFlags(fs *cli.FlagSet) *buildDraftFlags {
	return &buildDraftFlags{
		model:     fs.String("draft-model", "", "draft requests, before building, for the items with none of their own, none of the library's and no fresh draft, with this `MODEL`: openai:URL#NAME (an OpenAI-compatible API's base URL and model name) or bedrock:ID (a Bedrock model ID, inference profile ID or ARN); none: build with the drafts there are"),
		apiKeyEnv: fs.String("draft-api-key-env", "", "with --draft-model openai:…, the environment `VARIABLE` holding the endpoint's API key (none: no key is sent)"),
		region:    fs.String("draft-region", "", "with --draft-model bedrock:…, the AWS `REGION` (none: the AWS configuration's)"),
		endpoint:  fs.String("draft-endpoint", "", "with --draft-model bedrock:…, the `URL` that replaces https://bedrock-runtime.REGION.amazonaws.com"),
		dir:       fs.String("drafts", "", "the drafts' `DIR`, one reviewable requests file per server (default: CATALOG/drafts)"),
	}
}

// dirFor is the drafts' directory of the catalog at catalogDir.
func (f *buildDraftFlags) dirFor(catalogDir string) string {
	if *f.dir != "" {
		return *f.dir
	}
	return requests.DraftsDir(catalogDir)
}

// drafter is the model --draft-model names, with its key or credentials;
// nil when none is named.
func (f *buildDraftFlags) drafter(ctx context.Context) (*requests.Drafter, error) {
	kind, rest, _ := strings.Cut(*f.model, ":")
	openai, bedrock := kind == "openai", kind == "bedrock"
	switch {
	case *f.model == "":
		if *f.apiKeyEnv+*f.region+*f.endpoint != "" {
			return nil, fmt.Errorf("%w: --draft-api-key-env, --draft-region and --draft-endpoint go with --draft-model", cli.ErrUsage)
		}
		return nil, nil
	case !openai && !bedrock, rest == "":
		return nil, fmt.Errorf("%w: --draft-model %q: want openai:URL#NAME or bedrock:ID", cli.ErrUsage, *f.model)
	case bedrock && *f.apiKeyEnv != "":
		return nil, fmt.Errorf("%w: --draft-api-key-env is for openai:…: Bedrock calls are signed with AWS credentials", cli.ErrUsage)
	case openai && *f.region+*f.endpoint != "":
		return nil, fmt.Errorf("%w: --draft-region and --draft-endpoint are for bedrock:… (an openai: model names its URL)", cli.ErrUsage)
	}
	retries, timeout := defaultRetries, requests.DefaultTimeout
	d := &draftFlags{bedrock: &bedrock, region: f.region, endpoint: f.endpoint, apiKeyEnv: f.apiKeyEnv, model: &rest,
		try: &retries, timeout: &timeout}
	flag := "--draft-endpoint"
	if openai {
		i := strings.LastIndex(rest, "#")
		if i <= 0 || rest[i+1:] == "" {
			return nil, fmt.Errorf("%w: --draft-model %q: want openai:URL#NAME, the endpoint's URL, then # and the model's name", cli.ErrUsage, *f.model)
		}
		url, name := rest[:i], rest[i+1:]
		d.endpoint, d.model, flag = &url, &name, "--draft-model openai:URL"
	}
	if err := checkEndpoint(flag, *d.endpoint); err != nil {
		return nil, err
	}
	m, err := d.newModel(ctx)
	if err != nil {
		return nil, err
	}
	return &requests.Drafter{Model: m, ID: kind + ":" + *d.model}, nil
}

// draft gives the items of cat (loaded from catalogDir, the library
// attached) without requests their drafts, drafting them first with
// drafter if it is not nil; what it drafted is told to stdout.
func (f *buildDraftFlags) draft(ctx context.Context, cat *catalog.Catalog, catalogDir string, drafter *requests.Drafter, stdout, notes io.Writer) (*requests.Cached, error) {
	dir := f.dirFor(catalogDir)
	c, err := requests.DraftCached(ctx, cat, catalogDir, dir, &requests.CacheOptions{Drafter: drafter, Notes: notes})
	if c != nil && c.Drafted > 0 {
		fmt.Fprintf(stdout, "drafted the requests of %d items with %s into %s; review them there (the build uses them until the items change), or make them the catalog's own: mcpsearch requests apply --catalog %s %s\n",
			c.Drafted, drafter.ID, strings.Join(c.Files, ", "), catalogDir, strings.Join(c.Files, " "))
	}
	if err != nil {
		return nil, fmt.Errorf("drafting requests into %s: %w", dir, err)
	}
	return c, nil
}

// writeMissing tells w, when c left items without requests, how many and
// the command (command, with --draft-model) that drafts them.
func writeMissing(w io.Writer, c *requests.Cached, command string) {
	if c.Missing == 0 {
		return
	}
	stale := ""
	if c.Stale > 0 {
		stale = fmt.Sprintf(" (%d with a draft of what they were before)", c.Stale)
	}
	fmt.Fprintf(w, "%d items lack requests (none of their own, of the library's or drafted)%s; to draft them into %s: %s --draft-model openai:URL#NAME [--draft-api-key-env VARIABLE] (or bedrock:MODEL_ID); under sam build: DRAFT_MODEL=… (infra/README.md, \"Drafting at build\")\n",
		c.Missing, stale, c.Dir, command)
}

// buildCommand is the command line of a build (name: build or package)
// of catalogDir into out, with the flags that decide its drafts.
func (f *buildDraftFlags) buildCommand(name, catalogDir, out string) string {
	cmd := fmt.Sprintf("mcpsearch %s --catalog %s --out %s", name, shellWord(catalogDir), shellWord(out))
	if *f.dir != "" {
		cmd += " --drafts " + shellWord(*f.dir)
	}
	return cmd
}

// shellWord quotes s for a POSIX shell when it holds more than the
// characters a path needs.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
