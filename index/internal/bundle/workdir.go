package bundle

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A build works in a folder of its own beside its target,
// .mcpsearch-build-<random>: the new bundle is written to bundle/ in it and
// renamed into place, and the bundle it replaces is moved to old/ in it
// before it is removed. The folder holds a file "lock" that the build keeps
// locked (flock) while it runs; the kernel releases the lock when the
// process ends, even by kill -9. Each build first removes the build folders
// beside its target whose lock it can take (their build is gone), and those
// without a lock that are older than staleAge (a build that died before
// locking, or one from a version that wrote no lock).

const (
	workPrefix = ".mcpsearch-build-"
	lockName   = "lock"
	staleAge   = time.Hour
)

// workDir is the folder of a running build.
type workDir struct {
	dir  string
	lock *os.File
}

// newWorkDir removes the stale build folders in parent and makes a locked
// one.
func newWorkDir(parent string) (*workDir, error) {
	removeStaleWork(parent)
	dir, err := os.MkdirTemp(parent, workPrefix+"*")
	if err != nil {
		return nil, err
	}
	w := &workDir{dir: dir}
	if w.lock, err = createLocked(dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return w, nil
}

// createLocked creates dir/lock already locked: under another name first,
// so that no one finds it unlocked and takes the folder for a dead build's.
func createLocked(dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, lockName+"-*")
	if err != nil {
		return nil, err
	}
	if err := tryLock(f); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		f.Close()
		return nil, err
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, lockName)); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (w *workDir) bundle() string { return filepath.Join(w.dir, "bundle") }
func (w *workDir) old() string    { return filepath.Join(w.dir, "old") }

// remove deletes the folder, then releases its lock.
func (w *workDir) remove() error {
	err := os.RemoveAll(w.dir)
	return errors.Join(err, w.lock.Close())
}

// removeStaleWork removes the build folders in parent whose build is gone.
// It is best effort: a folder it cannot judge or remove stays.
func removeStaleWork(parent string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), workPrefix) {
			removeIfStale(filepath.Join(parent, e.Name()))
		}
	}
}

// removeIfStale removes the build folder (or legacy file) at path if its
// lock can be taken, or it has none and is older than staleAge.
func removeIfStale(path string) {
	f, err := os.Open(filepath.Join(path, lockName))
	if err != nil {
		if st, serr := os.Lstat(path); serr == nil && errors.Is(err, fs.ErrNotExist) && time.Since(st.ModTime()) > staleAge {
			os.RemoveAll(path)
		}
		return
	}
	defer f.Close() // releases the lock after the removal
	if tryLock(f) == nil {
		os.RemoveAll(path)
	}
}
