package requests

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

const (
	// File is the requests index of a bundle.
	File  = "requests.bin"
	magic = "MCPSRQ4\n"
)

// textChunk is how many requests' texts one checksum covers (checked once,
// the first time a search reads one of them: Text).
const textChunk = 256

// maxTF is the largest count of a term in one request the file keeps.
const maxTF = math.MaxUint8

// builder gathers the requests of a catalog, in catalog order.
type builder struct {
	itemFirst []uint32
	// itemOwn marks the items whose requests are their own text
	// (OwnRequests), a bit an item.
	itemOwn []byte
	// ownText are the kinds whose items without written requests get
	// their own text (OwnTextKinds).
	ownText map[ext.Kind]bool
	// run is the server and kind of the last item; ended, those of the
	// runs before it: a server's items of a kind are one run (retrieval
	// lifts a server's items by walking its run).
	run      serverRun
	ended    map[serverRun]bool
	requests uint32 // written so far
	reqLen   []uint16
	texts    []string
	postings map[string][]posting
	kinds    []kindHead
}

type serverRun struct {
	kind   ext.Kind
	server string
}

type posting struct {
	req uint32
	tf  uint8
}

// kindHead is what the file says of one kind: its items' positions, its
// requests' count and total length, and how many of its items carry
// written requests (asked) and their own text as requests (own).
type kindHead struct {
	first, items, requests, length, asked, own uint32
}

// Write writes File into dir for items, in catalog order (the items of a
// kind together, kinds in the order of ext.Kinds); docOf[p] is the
// document number of the item at catalog position p. Requests are read in
// the compatibility form queries are read in and analysed by the text
// analyser, as the items' own fields are.
func Write(dir string, items []catalog.Item, docOf []uint32) error {
	if len(docOf) != len(items) {
		return fmt.Errorf("%s: %d document numbers for %d items", File, len(docOf), len(items))
	}
	b := &builder{postings: map[string][]posting{}, kinds: make([]kindHead, len(ext.Kinds)), ended: map[serverRun]bool{},
		ownText: OwnTextKinds(items)}
	for pos := range items {
		if err := b.add(uint32(pos), &items[pos]); err != nil {
			return fmt.Errorf("%s: %w", File, err)
		}
	}
	b.itemFirst = append(b.itemFirst, b.requests)
	return os.WriteFile(filepath.Join(dir, File), b.encode(docOf), 0o644)
}

// add adds the requests of the item at catalog position pos.
func (b *builder) add(pos uint32, it *catalog.Item) error {
	k := slices.Index(ext.Kinds, it.Kind)
	if k < 0 {
		return fmt.Errorf("%s %q: unknown kind", it.Kind, it.Name)
	}
	head := &b.kinds[k]
	if head.items == 0 {
		head.first = pos
	} else if head.first+head.items != pos {
		return fmt.Errorf("%s %q: the items of a kind are not together", it.Kind, it.Name)
	}
	head.items++
	b.itemFirst = append(b.itemFirst, b.requests)
	run := serverRun{it.Kind, it.Server}
	if run != b.run {
		if b.ended[run] {
			return fmt.Errorf("%s %q: the items of a server of a kind are not together", it.Kind, it.Name)
		}
		b.ended[b.run], b.run = true, run
	}
	written, own := it.Requests, false
	if len(written) == 0 && b.ownText[it.Kind] {
		written = OwnRequests(it)
		own = len(written) > 0
	}
	b.markOwn(int(pos), own)
	switch {
	case own:
		head.own++
	case len(written) > 0:
		head.asked++
	}
	for _, r := range written {
		req := b.requests
		counts := map[string]int{}
		var order []string
		n := 0
		for _, tok := range text.Tokens(text.Normalize(r, math.MaxInt)) {
			t := string(tok.Term)
			if counts[t] == 0 {
				order = append(order, t)
			}
			counts[t]++
			n++
		}
		for _, t := range order {
			b.postings[t] = append(b.postings[t], posting{req: req, tf: uint8(min(counts[t], maxTF))})
		}
		b.requests++
		b.reqLen = append(b.reqLen, uint16(min(n, math.MaxUint16)))
		b.texts = append(b.texts, r)
		head.requests++
		head.length += uint32(n)
	}
	return nil
}

// markOwn records whether the i-th item's requests are its own text.
func (b *builder) markOwn(i int, own bool) {
	if i/8 >= len(b.itemOwn) {
		b.itemOwn = append(b.itemOwn, 0)
	}
	if own {
		b.itemOwn[i/8] |= 1 << (i % 8)
	}
}

// encode lays the file out as the package documentation says.
func (b *builder) encode(docOf []uint32) []byte {
	terms := make([]string, 0, len(b.postings))
	total := 0
	for t, ps := range b.postings {
		terms = append(terms, t)
		total += len(ps)
	}
	slices.Sort(terms)
	w := &encoder{}
	w.out = append(w.out, magic...)
	for _, v := range []int{len(docOf), int(b.requests), len(terms), total} {
		w.u32(uint32(v))
	}
	for _, h := range b.kinds {
		w.u32s(h.first, h.items, h.requests, h.length, h.asked, h.own)
	}
	w.u32s(b.itemFirst...)
	w.u32s(docOf...)
	w.out = append(w.out, b.itemOwn...)
	for _, v := range b.reqLen {
		w.out = binary.LittleEndian.AppendUint16(w.out, v)
	}
	w.offsets(len(terms), func(i int) int { return len(terms[i]) })
	w.offsets(len(terms), func(i int) int { return len(b.postings[terms[i]]) })
	postReq, postTF := b.postingsOf(terms)
	w.termSums(b.postings, terms, postReq, postTF)
	textOff := (&encoder{}).offsets(len(b.texts), func(i int) int { return len(b.texts[i]) }).out
	texts := []byte(strings.Join(b.texts, ""))
	w.textSums(textOff, texts)
	for _, t := range terms {
		w.out = append(w.out, t...)
	}
	w.out = checksum.Append(w.out, checksum.Of(w.out))
	w.out = append(w.out, textOff...)
	w.out = append(append(w.out, postReq...), postTF...)
	return append(w.out, texts...)
}

// postingsOf lays out the postings of terms: the request of each, then
// the count of each.
func (b *builder) postingsOf(terms []string) (postReq, postTF []byte) {
	for _, t := range terms {
		for _, p := range b.postings[t] {
			postReq = binary.LittleEndian.AppendUint32(postReq, p.req)
			postTF = append(postTF, p.tf)
		}
	}
	return postReq, postTF
}

// encoder appends the file's sections.
type encoder struct{ out []byte }

func (w *encoder) u32(v uint32) { w.out = binary.LittleEndian.AppendUint32(w.out, v) }

func (w *encoder) u32s(vs ...uint32) {
	for _, v := range vs {
		w.u32(v)
	}
}

// offsets appends the offset of each of n parts, of size(i) each, and the
// end of the last.
func (w *encoder) offsets(n int, size func(i int) int) *encoder {
	at := 0
	for i := range n {
		w.u32(uint32(at))
		at += size(i)
	}
	w.u32(uint32(at))
	return w
}

// termSums appends the checksum of each term's postings: its requests in
// postReq and its counts in postTF.
func (w *encoder) termSums(postings map[string][]posting, terms []string, postReq, postTF []byte) {
	from := 0
	for _, t := range terms {
		to := from + len(postings[t])
		w.u32(checksum.Of(postReq[4*from:4*to], postTF[from:to]))
		from = to
	}
}

// textSums appends the checksum of each chunk of textChunk requests'
// texts: their offsets (and the end of the last) and their bytes.
func (w *encoder) textSums(textOff, texts []byte) {
	n := len(textOff)/4 - 1
	for first := 0; first < n; first += textChunk {
		end := min(first+textChunk, n)
		w.u32(checksum.Of(textOff[4*first:4*(end+1)], texts[u32At(textOff, first):u32At(textOff, end)]))
	}
}
