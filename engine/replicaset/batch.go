package replicaset

// slowStartInitialBatch is the first batch size of a scale-up; batches then
// double (1, 2, 4, ...), as upstream's SlowStartInitialBatchSize.
const slowStartInitialBatch = 1

// burstReplicas caps how many pods one sync creates or deletes, as upstream's
// BurstReplicas.
const burstReplicas = 500

// slowStart calls create count times in batches that start at initial and
// double, and stops after the first batch in which any call failed: when the
// API refuses pods (quota, admission, a missing namespace) the controller
// learns it from one call instead of hundreds. It returns how many calls
// succeeded and the first error.
//
// Calls within a batch run one after another rather than in parallel, so the
// order of created pods (and of their events) is reproducible; every call of a
// failing batch is still made, as upstream's parallel batch would.
func slowStart(count, initial int, create func() error) (int, error) {
	successes := 0
	remaining := count
	for batch := min(remaining, initial); batch > 0; batch = min(2*batch, remaining) {
		var first error
		failed := 0
		for range batch {
			if err := create(); err != nil {
				failed++
				if first == nil {
					first = err
				}
			}
		}
		successes += batch - failed
		if first != nil {
			return successes, first
		}
		remaining -= batch
	}
	return successes, nil
}
