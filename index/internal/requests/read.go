package requests

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/blevesearch/mmap-go"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
)

// Index reads a bundle's requests file, mapped into memory. It is safe for
// concurrent use.
type Index struct {
	f        *os.File
	data     mmap.MMap
	items    int
	fullOnce sync.Once
	full     []*View // by kind of ext.Kinds: every item's requests, made on first use
	kinds    []kindHead
	// sections of data, as the package documentation lays them out
	itemFirst, itemDoc, itemOwn, reqLen, textOff, termOff, postOff, postReq, postTF, terms, texts []byte

	// the checksums of each term's postings and of each chunk of texts, and
	// which of them were found sound
	termSums, textSums         []byte
	checkedTerms, checkedTexts *checksum.Checked
}

// Open maps the requests file of the bundle at dir, which holds items
// items, and checks its layout.
func Open(dir string, items int) (_ *Index, err error) {
	f, err := os.Open(filepath.Join(dir, File))
	if err != nil {
		return nil, err
	}
	x := &Index{f: f}
	defer func() {
		if err != nil {
			x.Close()
			err = fmt.Errorf("%s: %w", File, err)
		}
	}()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() < int64(len(magic)) {
		return nil, errors.New("not a requests file")
	}
	if x.data, err = mmap.Map(f, mmap.RDONLY, 0); err != nil {
		return nil, err
	}
	if err := x.layOut(items); err != nil {
		return nil, err
	}
	return x, nil
}

// Close unmaps the file.
func (x *Index) Close() error {
	var err error
	if x.data != nil {
		err = x.data.Unmap()
		x.data = nil
	}
	return errors.Join(err, x.f.Close())
}

// layOut checks the head and slices the sections.
func (x *Index) layOut(items int) error {
	r := &reader{data: x.data}
	if string(r.bytes(len(magic))) != magic {
		return errors.New("not a requests file")
	}
	nItems, nReqs, nTerms, nPost := int(r.u32()), int(r.u32()), int(r.u32()), int(r.u32())
	if nItems != items {
		return fmt.Errorf("the requests of %d items, want %d", nItems, items)
	}
	x.items = nItems
	x.kinds = make([]kindHead, len(ext.Kinds))
	for i := range x.kinds {
		x.kinds[i] = kindHead{first: r.u32(), items: r.u32(), requests: r.u32(), length: r.u32(), asked: r.u32(), own: r.u32()}
	}
	x.itemFirst, x.itemDoc, x.itemOwn = r.bytes(4*(nItems+1)), r.bytes(4*nItems), r.bytes((nItems+7)/8)
	x.reqLen, x.termOff, x.postOff = r.bytes(2*nReqs), r.bytes(4*(nTerms+1)), r.bytes(4*(nTerms+1))
	x.termSums, x.textSums = r.bytes(4*nTerms), r.bytes(4*((nReqs+textChunk-1)/textChunk))
	if r.err != nil {
		return r.err
	}
	x.terms = r.bytes(int(u32At(x.termOff, nTerms)))
	if err := x.checkHead(r); err != nil {
		return err
	}
	x.textOff = r.bytes(4 * (nReqs + 1))
	x.postReq, x.postTF = r.bytes(4*nPost), r.bytes(nPost)
	if r.err != nil {
		return r.err
	}
	x.texts = r.bytes(int(u32At(x.textOff, nReqs)))
	if r.err != nil || r.at != len(x.data) {
		return errors.New("truncated or overlong")
	}
	x.checkedTerms, x.checkedTexts = checksum.NewChecked(nTerms), checksum.NewChecked(len(x.textSums)/4)
	return x.check(nReqs)
}

// checkHead checks the CRC of the head, all that r has read, which follows
// it.
func (x *Index) checkHead(r *reader) error {
	head := x.data[:r.at]
	if crc := r.u32(); r.err != nil || checksum.Of(head) != crc {
		return &checksum.Damage{File: File, Part: "the head (counts, items, request lengths, terms, offsets and checksums)"}
	}
	return nil
}

// check checks what reading trusts, in a pass over the items and the
// terms: their offset lists ascend to the end of what they index, and
// every document number of an item is one the file holds, so
// that a file whose checksums were rewritten with it still makes no
// search read past it. What is written once a request, or once a posting
// (about 7.5 a request), is checked where it is read instead (Text, Item,
// checkPostings, and request in score.go): at 100,000 tools a pass over
// them cost 4.3 of the 4.6 ms that opening the file took.
func (x *Index) check(nReqs int) error {
	for _, o := range []struct {
		name    string
		offsets []byte
		end     int
	}{
		{"item requests", x.itemFirst, nReqs},
		{"terms", x.termOff, len(x.terms)}, {"postings", x.postOff, len(x.postTF)},
	} {
		if !ascendsTo(o.offsets, o.end) {
			return fmt.Errorf("inconsistent offsets of %s", o.name)
		}
	}
	for i := 0; i < len(x.itemDoc); i += 4 {
		if doc := binary.LittleEndian.Uint32(x.itemDoc[i:]); int(doc) >= x.items {
			return fmt.Errorf("documents: %d out of range", doc)
		}
	}
	for k, h := range x.kinds {
		if int(h.first)+int(h.items) > x.items || u32At(x.itemFirst, int(h.first+h.items))-u32At(x.itemFirst, int(h.first)) != h.requests || h.asked+h.own > h.items {
			return fmt.Errorf("the head of %s does not match its items", ext.Kinds[k])
		}
	}
	return nil
}

// ascendsTo reports whether offsets (u32s) start at 0, never descend and
// end at end.
func ascendsTo(offsets []byte, end int) bool {
	prev := uint32(0)
	for i := 0; i < len(offsets); i += 4 {
		v := binary.LittleEndian.Uint32(offsets[i:])
		if v < prev || i == 0 && v != 0 {
			return false
		}
		prev = v
	}
	return int(prev) == end
}

// reader walks the sections of the file.
type reader struct {
	data []byte
	at   int
	err  error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || r.at+n > len(r.data) {
		r.err = errors.New("truncated")
		return nil
	}
	b := r.data[r.at : r.at+n : r.at+n]
	r.at += n
	return b
}

func (r *reader) u32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func u32At(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }

// Count is the number of requests of the items of kind k.
func (x *Index) Count(k ext.Kind) int { return int(x.kinds[kindIndex(k)].requests) }

// Text is the text of request req, as written: "" for a request the file
// does not hold. The texts are checked by their CRC a chunk of textChunk
// requests at a time, the first time one of them is read: a damaged
// chunk panics with a *checksum.Damage (see the package documentation).
func (x *Index) Text(req uint32) string {
	if int(req) >= len(x.reqLen)/2 {
		return ""
	}
	x.checkTexts(int(req) / textChunk)
	from, to := u32At(x.textOff, int(req)), u32At(x.textOff, int(req)+1)
	if from > to || int(to) > len(x.texts) {
		return ""
	}
	return string(x.texts[from:to])
}

// Item is the catalog position of the item request req (one the file
// holds) is written for: a binary search of the items' first requests,
// which Open checks.
func (x *Index) Item(req uint32) int { return x.itemFrom(0, req) }

// itemFrom is Item(req) for a request of the item at position from or
// after: a search forward from it, in steps that double, then a binary
// search (a walk of ascending requests finds each item in about the log
// of the items it passes).
func (x *Index) itemFrom(from int, req uint32) int {
	end := func(pos int) uint32 { return u32At(x.itemFirst, pos+1) }
	lo, step := from, 1 // lo: an item whose end may still be ≤ req
	for lo+step < x.items && end(lo+step-1) <= req {
		lo += step
		step *= 2
	}
	hi := min(lo+step, x.items)
	return lo + sort.Search(hi-lo, func(i int) bool { return end(lo+i) > req })
}

// Of returns the requests of the item at catalog position pos, as written.
func (x *Index) Of(pos int) []string {
	if pos < 0 || pos >= x.items {
		return nil
	}
	var out []string
	for req := u32At(x.itemFirst, pos); req < u32At(x.itemFirst, pos+1); req++ {
		out = append(out, x.Text(req))
	}
	return out
}

// checkTexts checks chunk c of the texts (their offsets and their bytes)
// by its CRC, the first time; it panics with a *checksum.Damage when the
// chunk is damaged.
func (x *Index) checkTexts(c int) {
	if x.checkedTexts.Has(c) {
		return
	}
	n := len(x.textOff)/4 - 1
	first, end := c*textChunk, min((c+1)*textChunk, n)
	from, to := u32At(x.textOff, first), u32At(x.textOff, end)
	if from > to || int(to) > len(x.texts) || checksum.Of(x.textOff[4*first:4*(end+1)], x.texts[from:to]) != u32At(x.textSums, c) {
		panic(&checksum.Damage{File: File, Part: fmt.Sprintf("the texts of requests %d to %d", first, end-1)})
	}
	x.checkedTexts.Add(c)
}

// checkPostings checks the postings of term i (their requests and counts)
// by their CRC, the first time; it panics with a *checksum.Damage when
// they are damaged.
func (x *Index) checkPostings(i int) {
	if x.checkedTerms.Has(i) {
		return
	}
	from, to := u32At(x.postOff, i), u32At(x.postOff, i+1)
	if checksum.Of(x.postReq[4*from:4*to], x.postTF[from:to]) != u32At(x.termSums, i) {
		panic(&checksum.Damage{File: File, Part: fmt.Sprintf("the postings of term %q", x.termAt(i))})
	}
	x.checkedTerms.Add(i)
}

// Has reports whether a request holds term.
func (x *Index) Has(term string) bool {
	_, ok := x.term(term)
	return ok
}

// term finds term in the sorted term blob, and checks its postings (the
// first time: checkPostings), which every reader of them looks up here
// first.
func (x *Index) term(term string) (int, bool) {
	n := len(x.termOff)/4 - 1
	want := []byte(term)
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if bytes.Compare(x.termAt(mid), want) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	found := lo < n && bytes.Equal(x.termAt(lo), want)
	if found {
		x.checkPostings(lo)
	}
	return lo, found
}

func (x *Index) termAt(i int) []byte {
	return x.terms[u32At(x.termOff, i):u32At(x.termOff, i+1)]
}

// kindIndex is k's place in ext.Kinds (0 for an unknown kind, which no
// caller passes: the search checks kinds first).
func kindIndex(k ext.Kind) int { return max(slices.Index(ext.Kinds, k), 0) }

// Items returns the catalog positions of the first and past the last item
// of kind k.
func (x *Index) Items(k ext.Kind) (first, end int) {
	h := x.kinds[kindIndex(k)]
	return int(h.first), int(h.first + h.items)
}

// Own reports whether the requests of the item at catalog position pos
// are its own text (OwnRequests), not written for it.
func (x *Index) Own(pos int) bool {
	return pos >= 0 && pos < x.items && x.itemOwn[pos/8]&(1<<(pos%8)) != 0
}

// ItemsWithRequests counts the items of kind k that carry a written
// request (not their own text).
func (x *Index) ItemsWithRequests(k ext.Kind) int { return x.fullView(k).asked }

// ItemsWithOwnText counts the items of kind k whose requests are their
// own text (Own).
func (x *Index) ItemsWithOwnText(k ext.Kind) int { return x.fullView(k).own }

// fullView is the view of kind k of a caller who sees every item, made
// once (wholeView).
func (x *Index) fullView(k ext.Kind) *View {
	x.fullOnce.Do(func() {
		x.full = make([]*View, len(ext.Kinds))
		for i, kind := range ext.Kinds {
			x.full[i] = x.wholeView(kind)
		}
	})
	return x.full[kindIndex(k)]
}

// Items of kind k.
func (x *Index) ItemCount(k ext.Kind) int { return int(x.kinds[kindIndex(k)].items) }
