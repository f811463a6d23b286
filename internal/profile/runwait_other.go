//go:build !linux

package profile

import "time"

// runQueueWait is read from Linux's schedstat only: logged as 0 elsewhere.
func runQueueWait() time.Duration { return 0 }
