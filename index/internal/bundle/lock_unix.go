//go:build unix

package bundle

import (
	"os"
	"syscall"
)

// tryLock takes an exclusive flock on f without waiting; the lock lasts
// until f is closed or the process ends.
func tryLock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
