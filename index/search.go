package index

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Field weights of the text query.
var fieldBoosts = []struct {
	field string
	boost float64
}{
	{fieldName, 1.2}, {fieldTitle, 1.0}, {fieldDescription, 1.5},
	{fieldParams, 0.7}, {fieldServerWords, 0.5}, {fieldURI, 1.0}, {fieldRelated, 0.3},
	{fieldContent, 0.5}, {fieldGloss, 0.5},
}

// exactNameBoost lifts an item whose name is the whole query.
const exactNameBoost = 20

// Search implements ext.Searcher. It retrieves candidates with BM25, re-ranks
// the first rerankWindow of them (see rank.go) and loads the MCP objects of
// the requested page only. Items the caller (ext.AccessFrom(ctx)) may not
// see are excluded by the query itself, before ranking and the cut.
func (x *Index) Search(ctx context.Context, q ext.Query) (_ *ext.Page, err error) {
	defer recoverDamage(x.dir, &err)
	own := firstHanChars(q.Text)            // the Chinese read (gloss.go)
	text := withGlosses(withFileWords(own)) // what BM25 and the vectors read: paths.go, gloss.go
	qterms, err := x.resolveTerms(q.Kind, queryTerms(text))
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	terms := termStrings(qterms)
	access := ext.AccessFrom(ctx)
	w := x.visibility.viewer(access)
	if err := x.checkAnnotations(q, w); err != nil {
		return nil, err
	}
	bq, err := searchQuery(q, terms, x.manifest.Separator, w.all(), access)
	if err != nil {
		return nil, err
	}
	if len(terms) == 0 {
		return &ext.Page{Hint: "the query has no searchable words"}, nil
	}
	unknown, err := x.unknownServers(q, w)
	if err != nil {
		return nil, err
	}
	if len(unknown) > 0 && len(unknown) == len(q.Filter.Servers) {
		return &ext.Page{Hint: filterHint(q, unknown, "")}, nil
	}
	if q.Limit <= 0 {
		return &ext.Page{}, nil
	}
	cands, err := x.candidates(ctx, q.Kind, bq, max(rerankWindow, q.Offset+q.Limit+1))
	if err != nil {
		return nil, err
	}
	cands, window, err := x.addDense(ctx, q, text, cands)
	if err != nil {
		return nil, err
	}
	info := newQueryInfo(q.Text, terms)
	rerank(info, cands, window)
	if hint, err := x.noMatchHint(q.Kind, qterms, filesAsWord(own), text, cands); hint != "" || err != nil {
		return &ext.Page{Hint: filterHint(q, unknown, hint)}, err
	}
	if q.Offset >= len(cands) {
		return &ext.Page{}, nil
	}
	pageCands := cands[q.Offset:min(len(cands), q.Offset+q.Limit)]
	page, err := x.load(ctx, pageCands)
	if err != nil {
		return nil, err
	}
	page.More = len(cands) > q.Offset+q.Limit
	if q.Explain {
		if err := x.explainPage(ctx, q, bq, info, cands, window, page); err != nil {
			return nil, err
		}
	}
	return page, nil
}

// The no-match cut-off: a short query (at most shortQueryTerms words)
// states its subject in few words, and is answered with no items when the
// best item holds less than minCoverage of its weight (inverse document
// frequency of its content words, see coverage). Long queries describe a
// task and carry many words no tool description holds; any bar on them cost
// recall (see the README's technique log), so they are not cut.
const (
	minCoverage     = 0.35
	shortQueryTerms = 4
)

// noWordMatches is the hint of a query none of whose words an item holds.
const noWordMatches = "no item matches any word of the query"

// noMatchHint says why no item fits the query, or returns "" when the best
// candidate fits well enough. terms are those of the searched text, own
// the caller's (see queryConcepts).
func (x *Index) noMatchHint(kind ext.Kind, terms []queryTerm, own, searched string, cands []candidate) (string, error) {
	if len(cands) == 0 {
		return noWordMatches, nil
	}
	concepts := queryConcepts(terms, own, searched, shortQueryTerms)
	if len(concepts) > shortQueryTerms {
		return "", nil
	}
	var alternatives []queryTerm
	for _, c := range concepts {
		alternatives = append(alternatives, c.alternatives...)
	}
	held, err := x.heldTerms(kind, cands[0].id, alternatives)
	if err != nil {
		return "", err
	}
	cov, missing := coverage(concepts, held, x.manifest.Counts[kind])
	if cov >= minCoverage {
		return "", nil
	}
	return fmt.Sprintf("no item fits this query well: the best match lacks %s", strings.Join(missing, ", ")), nil
}

// concept is one thing the query asks for, as the no-match test weighs it:
// an analysed word of the query, or a Chinese word of it, held by an item
// that holds any of the words of its English gloss.
type concept struct {
	label        string // what the hint calls it: the caller's own word
	alternatives []queryTerm
}

// queryConcepts returns the concepts of own, the caller's text, among the
// resolved terms of the searched text (own with its file paths' names and
// its glosses): each word of own is one, and each Chinese word of own with
// a gloss is one whose alternatives are the gloss's words. When own is the
// searched text, every term is a concept of its own. File names are
// none (see filesAsWord); CJK bigrams, never content words, and single
// Chinese characters, whose glosses are one sense of many, count for
// nothing. It stops at the first concept past the most that are weighed.
func queryConcepts(terms []queryTerm, own, searched string, most int) []concept {
	if own == searched {
		out := make([]concept, min(len(terms), most+1))
		for i := range out {
			t := terms[i]
			out[i] = concept{label: cmp.Or(t.corrected, t.term), alternatives: []queryTerm{t}}
		}
		return out
	}
	byTerm := map[string]queryTerm{}
	for _, t := range terms {
		byTerm[t.term] = t
		if t.corrected != "" {
			byTerm[t.corrected] = t
		}
	}
	var out []concept
	for _, w := range analyze(own) {
		if hasHan(w) {
			continue // a bigram of Chinese text: its words are concepts below
		}
		for _, t := range terms {
			if t.term == w || t.corrected == w {
				out = append(out, concept{label: cmp.Or(t.corrected, t.term), alternatives: []queryTerm{t}})
				break
			}
		}
	}
	for _, g := range glossWords(own) {
		if len(out) > most {
			break
		}
		if utf8.RuneCountInString(g.word) < 2 {
			continue // a single character has too many senses to weigh
		}
		c := concept{label: g.word}
		for _, w := range analyze(g.english) {
			if t, ok := byTerm[w]; ok {
				c.alternatives = append(c.alternatives, t)
			}
		}
		if len(c.alternatives) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// docCount is the number of items of every kind.
func (x *Index) docCount() int {
	n := 0
	for _, c := range x.manifest.Counts {
		n += c
	}
	return n
}

func termStrings(terms []queryTerm) []string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = t.term
	}
	return out
}

// candidates runs the BM25 query for the best n items (bm25.go) and reads
// the meta records of the re-ranking window.
func (x *Index) candidates(ctx context.Context, kind ext.Kind, bq bm25Query, n int) ([]candidate, error) {
	cands, err := x.bm25Top(ctx, kind, bq, n)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	window := make([]string, 0, rerankWindow) // only re-ranking reads names
	for i := range cands[:min(len(cands), rerankWindow)] {
		window = append(window, cands[i].id)
	}
	metas, err := x.metasOf(window)
	if err != nil {
		return nil, err
	}
	for i, m := range metas {
		cands[i].label, cands[i].server, cands[i].words = m.label, m.server, strings.Fields(m.words)
	}
	return cands, nil
}

// load fetches the objects of cands, in their order, with their scores.
func (x *Index) load(ctx context.Context, cands []candidate) (*ext.Page, error) {
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.id
	}
	hits, err := x.fetch(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range hits {
		hits[i].Score = cands[i].score
	}
	return &ext.Page{Items: hits}, nil
}

// List implements ext.Searcher: the items of kind k in catalog order, of
// those the caller (ext.AccessFrom(ctx)) may see; offset counts those only.
func (x *Index) List(ctx context.Context, k ext.Kind, offset, limit int) (_ *ext.Page, err error) {
	defer recoverDamage(x.dir, &err)
	if w := x.visibility.viewer(ext.AccessFrom(ctx)); !w.all() {
		return x.listVisible(ctx, w, k, offset, limit)
	}
	total := x.manifest.Counts[k]
	if offset >= total || limit <= 0 {
		return &ext.Page{}, nil
	}
	end := min(offset+limit, total)
	ids := make([]string, 0, end-offset)
	for n := offset; n < end; n++ {
		ids = append(ids, docID(k, n))
	}
	hits, err := x.fetch(ctx, ids)
	if err != nil {
		return nil, err
	}
	return &ext.Page{Items: hits, More: end < total}, nil
}

// listVisible is List for a caller who sees some items only: it walks the
// in-memory visibility of the kind's items, which costs a few nanoseconds
// an item, and loads the page's objects.
func (x *Index) listVisible(ctx context.Context, w viewer, k ext.Kind, offset, limit int) (*ext.Page, error) {
	if limit <= 0 {
		return &ext.Page{}, nil
	}
	var ids []string
	seen, more := 0, false
	for n := range x.manifest.Counts[k] {
		if !w.sees(k, n) {
			continue
		}
		if seen++; seen <= offset {
			continue
		}
		if len(ids) == limit {
			more = true
			break
		}
		ids = append(ids, docID(k, n))
	}
	hits, err := x.fetch(ctx, ids)
	if err != nil {
		return nil, err
	}
	return &ext.Page{Items: hits, More: more}, nil
}

// fetch loads the objects of the documents ids, in that order.
func (x *Index) fetch(_ context.Context, ids []string) ([]ext.Hit, error) {
	hits := make([]ext.Hit, len(ids))
	metas, err := x.metasOf(ids)
	if err != nil {
		return nil, err
	}
	positions := make([]int, len(ids))
	for i, id := range ids {
		positions[i], _ = x.position(id) // metasOf checked every id
		hits[i].Server = metas[i].server
	}
	objects, err := x.objects.getAll(positions)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	for i := range hits {
		hits[i].Object = objects[i]
	}
	return hits, nil
}

// metaOf reads the name, server and name words of document id.
func (x *Index) metaOf(id string) (meta, error) {
	metas, err := x.metasOf([]string{id})
	if err != nil {
		return meta{}, err
	}
	return metas[0], nil
}

// metasOf reads the meta records of documents ids, in that order, reading
// each block of the store once.
func (x *Index) metasOf(ids []string) ([]meta, error) {
	positions := make([]int, len(ids))
	for i, id := range ids {
		pos, err := x.position(id)
		if err != nil {
			return nil, err
		}
		positions[i] = pos
	}
	raws, err := x.metas.getAll(positions)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	metas := make([]meta, len(raws))
	for i, raw := range raws {
		if metas[i], err = decodeMeta(raw); err != nil {
			return nil, fmt.Errorf("index %s: document %s: %w", x.dir, ids[i], err)
		}
	}
	return metas, nil
}

// position turns a document id ("t/00000042") into the position of its
// record in catalog order.
func (x *Index) position(id string) (int, error) {
	code, num, ok := strings.Cut(id, "/")
	n, err := strconv.Atoi(num)
	for k, c := range kindCode {
		if ok && err == nil && c == code && n >= 0 && n < x.manifest.Counts[k] {
			return x.base[k] + n, nil
		}
	}
	return 0, fmt.Errorf("index %s: no document %q", x.dir, id)
}

// searchQuery builds the bleve query for q: the text query, restricted by
// kind, filter and, unless seesAll, what a caller with access may see.
// Text is analysed into words, never parsed as syntax. sep is the name
// separator, for exact canonical names.
func searchQuery(q ext.Query, terms []string, sep string, seesAll bool, access ext.Access) (bm25Query, error) {
	filters, err := filterClauses(q, seesAll, access)
	if err != nil {
		return bm25Query{}, err
	}
	return bm25Query{text: textQuery(q.Kind, q.Text, terms, sep), filters: filters}, nil
}

// filterClauses are the clauses of q's kind, its filter and, unless
// seesAll, what a caller with access may see; they score nothing.
func filterClauses(q ext.Query, seesAll bool, access ext.Access) ([][]bm25Leaf, error) {
	if !q.Kind.Valid() {
		return nil, fmt.Errorf("%w: unknown kind %q", ext.ErrInvalidParams, q.Kind)
	}
	var clauses [][]bm25Leaf
	if !seesAll {
		clauses = append(clauses, visibilityFilter(access))
	}
	if len(q.Filter.Servers) > 0 {
		servers := make([]bm25Leaf, len(q.Filter.Servers))
		for i, s := range q.Filter.Servers {
			servers[i] = filterTerm(fieldServer, s)
		}
		clauses = append(clauses, servers)
	}
	annotations, err := annotationFilter(q.Filter.Annotations)
	if err != nil {
		return nil, err
	}
	return append(clauses, annotations...), nil
}

// genericWeight scales words that say little about which tool is meant:
// the verbs every tool name starts with and the politeness of requests.
// Re-ranking still reads the verbs as actions.
const genericWeight = 0.3

var genericWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`show list get find give tell provide want need like help pleas use us
		can could would should might may let make sure also just specif particular certain
		tool inform detail data item thing way someth anyth current avail`) {
		genericWords[w] = true
	}
}

func termWeight(term string) float64 {
	if genericWords[term] {
		return genericWeight
	}
	return 1
}

// textQuery matches the words of text in the text fields, and the whole
// text against item names. Each field is one clause, a disjunction of the
// words in that field. bleve multiplies a disjunction's score by the share
// of its clauses that matched, so an item matched in several fields, and by
// several words in a field, ranks higher (measured against one clause per
// word and one flat clause: see the technique log in the README).
func textQuery(k ext.Kind, text string, words []string, sep string) [][]bm25Leaf {
	clauses := make([][]bm25Leaf, 0, len(fieldBoosts)+1)
	for _, fb := range fieldBoosts {
		terms := make([]bm25Leaf, 0, len(words))
		for _, w := range words {
			terms = append(terms, bm25Leaf{field: kindField(k, fb.field), term: w, boost: fb.boost * termWeight(w)})
		}
		clauses = append(clauses, terms)
	}
	return append(clauses, exactNameQuery(k, text, sep))
}

// exactNameQuery matches the item whose own name is the whole text. Items
// are indexed under their own name only (canonical names would add a unique
// term per item); a canonical name — server, separator, name — is matched by
// its own-name part too, and re-ranking checks the server.
func exactNameQuery(k ext.Kind, text, sep string) []bm25Leaf {
	names := []string{normalizeName(text)}
	if _, own, ok := strings.Cut(text, sep); ok && sep != "" {
		names = append(names, normalizeName(own))
	}
	clauses := make([]bm25Leaf, len(names))
	for i, n := range names {
		clauses[i] = bm25Leaf{field: kindField(k, fieldNameExact), term: n, boost: exactNameBoost}
	}
	return clauses
}

func fieldTerm(term, field string, boost float64) query.Query {
	t := bleve.NewTermQuery(term)
	t.SetField(field)
	t.SetBoost(boost)
	return t
}

// analyze returns the distinct terms of text under the text analyzer.
func analyze(text string) []string {
	var terms []string
	seen := map[string]bool{}
	for _, tok := range textAnalyzer.Analyze([]byte(text)) {
		if t := string(tok.Term); !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	}
	return terms
}

// maxSearchTerms bounds the distinct terms a query searches: its first
// ones, in the order of its text, of which at most maxSearchTerms/2 pairs
// of Chinese characters, so that a long Chinese query keeps the glosses
// that follow its characters. A query of ext.MaxQueryTerms words can
// analyse to more (identifiers split into their words, Chinese into pairs
// of characters and the words of its glosses); every term costs lookups,
// maybe a typo walk, and a walk of its postings in every text field.
const maxSearchTerms = 48

// queryTerms returns the terms a query's text searches (maxSearchTerms).
func queryTerms(text string) []string {
	var terms []string
	seen, han := map[string]bool{}, 0
	for _, tok := range textAnalyzer.Analyze([]byte(text)) {
		t := string(tok.Term)
		if seen[t] || hasHan(t) && han == maxSearchTerms/2 {
			continue
		}
		seen[t] = true
		if hasHan(t) {
			han++
		}
		if terms = append(terms, t); len(terms) == maxSearchTerms {
			break
		}
	}
	return terms
}

// visibilityFilter matches the items a caller with a may see: public items
// and those of its groups and scopes.
func visibilityFilter(a ext.Access) []bm25Leaf {
	terms := accessTerms(a)
	clauses := make([]bm25Leaf, len(terms))
	for i, t := range terms {
		clauses[i] = filterTerm(fieldVisibility, t)
	}
	return clauses
}

// filterTerm is a term that restricts matches without adding to the score.
func filterTerm(field, term string) bm25Leaf {
	return bm25Leaf{field: field, term: term}
}

// annotationFilter turns {"readOnlyHint": true} into term clauses.
func annotationFilter(a map[string]any) ([][]bm25Leaf, error) {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	clauses := make([][]bm25Leaf, 0, len(keys))
	for _, k := range keys {
		term, ok := annotationTerm(k, a[k])
		if !ok {
			return nil, fmt.Errorf("%w: filter.annotations.%s must be a boolean, string or number", ext.ErrInvalidParams, k)
		}
		clauses = append(clauses, []bm25Leaf{filterTerm(fieldAnnotations, term)})
	}
	return clauses, nil
}

// Dense fusion: the cosine of query and item vectors (itemvec.go), times
// denseWeight, is added to the score of every candidate of the re-ranking
// window, and the denseCandidates items nearest the query join the window
// whether BM25 found them or not, so an item that shares no word with the
// query can still be found.
const (
	denseWeight     = 0.8
	denseCandidates = 5
	// denseMinCosine: nearer items only join the window (measured: any
	// bar up to 0.4 costs no recall; it keeps unrelated items of a small
	// catalog out of the answer).
	denseMinCosine = 0.4
)

// addDense scores the re-ranking window by the cosine of query and item
// vectors and adds the items nearest by cosine that BM25 did not rank in
// it; a long query's clauses add theirs too (clauses.go). It returns the candidates and the size of the new window.
func (x *Index) addDense(ctx context.Context, q ext.Query, text string, cands []candidate) ([]candidate, int, error) {
	window := min(len(cands), rerankWindow)
	if len(cands) == 0 {
		return cands, window, nil // nothing shares a word with the query: no items
	}
	qv := x.vectors.queryVector(text)
	if qv == nil {
		return cands, window, nil
	}
	cvs := x.clauseVectors(text)
	near, err := x.nearestAll(q.Kind, qv, cvs)
	if err != nil {
		return nil, 0, err
	}
	if near, err = x.passFilter(ctx, q, near); err != nil {
		return nil, 0, err
	}
	at := map[string]int{}
	for i, c := range cands {
		at[c.id] = i
	}
	out := slices.Clone(cands[:window])
	moved := map[int]bool{}
	for _, h := range near {
		id := docID(q.Kind, h.ord)
		if j, ok := at[id]; ok {
			if j < window {
				continue
			}
			moved[j] = true
		}
		// BM25 counts in the window only: an item joining it scores by its
		// cosine and name, whatever page (and so how many BM25 candidates)
		// was asked for, so that every page sees the same order.
		c := candidate{id: id}
		m, err := x.metaOf(id)
		if err != nil {
			return nil, 0, err
		}
		c.label, c.server, c.words = m.label, m.server, strings.Fields(m.words)
		out = append(out, c)
	}
	w := len(out)
	ords := make([]int, w)
	for i, c := range out {
		pos, err := x.position(c.id)
		if err != nil {
			return nil, 0, err
		}
		ords[i] = pos - x.base[q.Kind]
	}
	cos, err := x.vectors.cosines(q.Kind, qv, ords)
	if err != nil {
		return nil, 0, err
	}
	lift, err := x.clauseBest(q.Kind, cvs, ords)
	if err != nil {
		return nil, 0, err
	}
	for i := range out {
		out[i].dense, out[i].clause = float64(cos[i]), lift[i]
	}
	for j := window; j < len(cands); j++ {
		if !moved[j] {
			out = append(out, cands[j])
		}
	}
	return out, w, nil
}

// passFilter keeps the hits that pass q's filter, in their order.
func (x *Index) passFilter(ctx context.Context, q ext.Query, hits []denseHit) ([]denseHit, error) {
	access := ext.AccessFrom(ctx)
	clauses, err := filterClauses(q, x.visibility.viewer(access).all(), access)
	if err != nil || len(clauses) == 0 || len(hits) == 0 {
		return hits, err
	}
	r, docs, err := x.readerOfDocs()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	allowed, err := allowedDocs(r, clauses, docs, nil)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	pass := map[int]bool{}
	for _, h := range hits {
		id, err := r.InternalID(docID(q.Kind, h.ord))
		if err != nil || id == nil {
			return nil, fmt.Errorf("index %s: no document %s (%v)", x.dir, docID(q.Kind, h.ord), err)
		}
		pass[h.ord] = lets(allowed, docNumber(id))
	}
	return slices.DeleteFunc(hits, func(h denseHit) bool { return !pass[h.ord] }), nil
}
