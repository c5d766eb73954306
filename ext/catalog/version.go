package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Version is the SHA-256 (hex) of format, the version of the bundle format
// that will be built from c (index.FormatVersion), and of the canonical
// catalog: servers and items in their sorted order, objects as compact
// JSON. Equal catalogs give equal versions whatever the order of their
// files, and a new bundle format gives every catalog a new version.
func (c *Catalog) Version(format int) string {
	h := sha256.New()
	fmt.Fprintf(h, "mcpsearch bundle format %d\x00%s\x00", format, c.Separator())
	for _, s := range c.Servers {
		fmt.Fprintf(h, "server\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00", s.Name, s.Package, s.License, s.Source, s.Upstream, s.Visibility, s.About)
	}
	for _, it := range c.Items {
		fmt.Fprintf(h, "item\x00%s\x00%s\x00%s\x00%d\x00", it.Kind, it.Server, it.Name, len(it.Object))
		h.Write(it.Object)
		if !it.Visibility.Public() {
			fmt.Fprintf(h, "visibility\x00%q\x00%q\x00", it.Visibility.Groups, it.Visibility.Scopes)
		}
		if len(it.Requests) > 0 {
			fmt.Fprintf(h, "requests\x00%d\x00%q\x00", len(it.Requests), it.Requests)
		}
		if it.Content != "" {
			fmt.Fprintf(h, "content\x00%d\x00%s", len(it.Content), it.Content)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Separator is the name separator of c: Sep, or DefaultSeparator.
func (c *Catalog) Separator() string {
	if c.Sep == "" {
		return DefaultSeparator
	}
	return c.Sep
}
