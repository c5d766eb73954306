//go:build !race

package index

// raceEnabled: the race detector is on (see race_on_test.go).
const raceEnabled = false
