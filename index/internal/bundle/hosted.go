package bundle

import (
	"context"
	"fmt"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/hosted"
)

// HostedModel is what embedded a bundle's items: what hosted.bin records
// (never a key). It has the shape of embed.Model, which converts to it.
type HostedModel struct {
	Backend  string // "openai" or "bedrock"
	Name     string // the model's name or ID
	Endpoint string // the base URL called ("" for Bedrock's regional endpoint)
	Region   string // Bedrock's region
	Dims     int    // the vectors' dimensions (0 when building: the answers')
}

func (m HostedModel) String() string { return hosted.Model(m).String() }

// HostedItems embeds a catalog's items at build time (BuildOptions.Hosted).
type HostedItems struct {
	Model HostedModel
	// Embed returns one vector per text, in their order
	// (embed.Client.EmbedItems); its error fails the build.
	Embed func(ctx context.Context, texts []string) ([][]float32, error)
}

// embeddedItems are a catalog's items embedded by a hosted model, to be
// written (nil: the build has no hosted model).
type embeddedItems struct {
	model HostedModel
	vecs  [][]float32
}

// embedHosted embeds the items of cat with opts.Hosted, if set.
func embedHosted(cat *catalog.Catalog, opts *BuildOptions) (*embeddedItems, error) {
	if opts == nil || opts.Hosted == nil {
		return nil, nil
	}
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	texts := make([]string, len(cat.Items))
	for i := range cat.Items {
		texts[i] = hosted.ItemText(&cat.Items[i])
	}
	vecs, err := opts.Hosted.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embedding the items with %s: %w", opts.Hosted.Model, err)
	}
	return &embeddedItems{opts.Hosted.Model, vecs}, nil
}

// write writes hosted.bin into the bundle dir of cat (nothing when e is nil).
func (e *embeddedItems) write(dir string, cat *catalog.Catalog) error {
	if e == nil {
		return nil
	}
	if err := hosted.Write(dir, hosted.Model(e.model), cat.Items, e.vecs); err != nil {
		return fmt.Errorf("the hosted vectors of %s: %w", e.model, err)
	}
	return nil
}
