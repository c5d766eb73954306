// Package sight is who sees what of a bundle: the manifest's visibility
// table expanded for serving ([Index], [Expand]), each caller's [Viewer],
// and, for each combination of visibility sets a caller may see, what
// retrieval reads through its sight ([View]: the documents it sees and
// does not, its BM25 statistics, its view of the written requests), made
// once and cached ([Cache]).
//
// What a caller who may not see every item learns of the others: nothing
// of their words. Retrieval reads the bundle through the caller's sight
// (retrieval.Sight, which [View] implements): its query's words are looked
// up, corrected and weighed among the items it sees, every posting list
// is read without the documents it may not see (bm25.Scope), BM25's idf,
// average field lengths and postings bound count what it sees, so do the
// written requests' (requests.View), and the dense candidates are the
// nearest items it sees, so that a word only hidden items hold is, in
// every answer and score, a word no item holds (TestHiddenItemsShapeNothing,
// TestHiddenVocabularyIsUnknown). What still depends on hidden items is
// measured by TestHiddenServersRanking (functions/search/README.md,
// "What is not hidden"): the item vectors, built over every item.
//
// A term's documents that the caller sees are counted as the cardinality
// of the term's postings (a roaring bitmap in the segment) and the
// caller's visible documents, a bitmap per segment made once for each
// combination of visibility sets and cached.
package sight
