//go:build race

package index

// raceEnabled: the race detector is on. It slows every test several
// times over, so a test may sample its cases under it; the allocation
// bounds are checked under it too (TestWorstQueryAllocs).
const raceEnabled = true
