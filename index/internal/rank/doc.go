// Package rank is the ranking model of the index: the tuned numbers of the
// re-ranking and those the no-match decision and the query's reading
// share with retrieval (constants.go, each with the measurement behind it,
// read at query time only), and the re-ranking of BM25's candidates. The
// numbers retrieval alone reads are its own (retrieval's constants.go),
// the vectors' build-time numbers package vectors'.
//
// Ranking happens in two stages. BM25 over the text fields (package bm25,
// field boosts in retrieval) retrieves and orders candidates; then the first
// retrieval.RerankWindow of them, and the items nearest the query's vector, are
// re-scored ([Rerank]) with signals BM25 cannot see:
//
//   - name coverage: the share of the item's own name words that the query
//     holds, so "list container registries" prefers acr_registry_list to
//     acr_registry_repository_list, with bonuses for a name the query holds
//     whole and for one holding the plural object of a short command;
//   - the action: the verb of the query (list, get, create, delete, update)
//     against the verb in the item's name, so siblings that differ only in
//     their action are told apart;
//   - the exact name: an item whose name is the whole query goes first;
//   - similarity: the cosine of the query's and the item's word vectors,
//     and the lift of the item nearest each clause of a long task.
//
// Each candidate's [Signals] are computed once: their sum is its score, and
// the explain option shows them as they are.
package rank
