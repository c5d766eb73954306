package index

import (
	"context"
	"sync"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/directory"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
)

var _ ext.Directory = (*Index)(nil)

// The directory of servers is package internal/directory's, read once, on
// the first directory asked for, from the list of servers and the meta
// records; a caller's directory then costs a pass over the servers and
// their visibility sets.

// directoryOnce is the directory of servers, read on first use.
type directoryOnce struct {
	once sync.Once
	err  error
	d    *directory.Directory
}

// Directory implements ext.Directory: the servers the caller sees, each
// with its description or its topics (internal/directory).
func (x *Index) Directory(ctx context.Context) (_ []ext.ServerEntry, err error) {
	defer recoverDamage(x.dir, &err)
	d := &x.directory
	d.once.Do(func() { d.d, d.err = x.readDirectory() })
	if d.err != nil {
		return nil, d.err
	}
	return d.d.For(x.visibility.Viewer(ext.AccessFrom(ctx))), nil
}

// readDirectory reads every item's server and name from the meta records.
func (x *Index) readDirectory() (_ *directory.Directory, err error) {
	defer wrapf(&err, "index %s: directory of servers", x.dir)
	servers, err := x.Servers()
	if err != nil {
		return nil, err
	}
	return directory.Read(servers, x.visibility, x.eachMeta)
}

// eachMeta calls fn with the meta record of every item of kind k, reading
// the store a block of records at a time.
func (x *Index) eachMeta(k ext.Kind, fn func(n int, m store.Meta)) error {
	const batch = 1024
	count := x.manifest.Counts[k]
	for start := 0; start < count; start += batch {
		ids := make([]string, 0, batch)
		for n := start; n < min(start+batch, count); n++ {
			ids = append(ids, schema.DocID(k, n))
		}
		metas, err := x.metasOf(ids)
		if err != nil {
			return err
		}
		for i, m := range metas {
			fn(start+i, m)
		}
	}
	return nil
}
