//go:build !unix

package bundle

import (
	"errors"
	"os"
)

// tryLock is not available here: build folders are then judged by age
// only, and a locked one is never taken for stale.
func tryLock(*os.File) error { return errors.ErrUnsupported }
