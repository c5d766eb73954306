//go:build race

package index

// raceEnabled: the race detector is on. It allocates for its own
// bookkeeping and drops sync.Pool entries at random, so allocation bounds
// are not checked under it (the ordinary test run checks them).
const raceEnabled = true
