// Package cpupriority runs costly work at a lower CPU priority than the
// requests people wait on. A replica's processors are shared by every
// unit: a filtered scan over thousands of records or a body of a
// megabyte decoded is one unit's, a page is another's. The shares of
// costly work (ratelimit) bound how much of it runs; this bounds what it
// takes from the rest while it runs: on Linux the work gets an OS thread
// of its own whose nice value is raised (Nice), so that the kernel gives
// the other threads the processors first and the work what is left, and
// the thread ends with the work (an unprivileged process cannot lower a
// nice value again).
package cpupriority

// Nice is how much the work's thread is niced: at 10, when the processors
// are contended, the kernel gives it about a tenth of a normal thread's
// share.
const Nice = 10

// Run runs fn at the lower priority and returns its error; a panic in fn
// is raised again in the caller's goroutine.
func Run(fn func() error) error {
	type result struct {
		err      error
		panicked any
		failed   bool
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r.panicked, r.failed = p, true
			}
			done <- r
		}()
		lower()
		r.err = fn()
	}()
	r := <-done
	if r.failed {
		panic(r.panicked)
	}
	return r.err
}
