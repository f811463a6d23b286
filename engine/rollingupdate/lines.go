package rollingupdate

import "fmt"

// The progress lines kubectl rolling-update printed, word for word: scripts
// that parsed them keep working.

func startLine(next string, existed bool) string {
	if existed {
		return fmt.Sprintf("Continuing update with existing controller %s.\n", next)
	}
	return fmt.Sprintf("Created %s\n", next)
}

func planLine(l Limits, old, next string, oldSize, nextSize int32) string {
	return fmt.Sprintf("Scaling up %s from %d to %d, scaling down %s from %d to 0 (keep %d pods available, don't exceed %d pods)\n",
		next, nextSize, l.Desired, old, oldSize, l.MinAvailable, l.Ceiling())
}

func scaleLine(name, direction string, to int32) string {
	return fmt.Sprintf("Scaling %s %s to %d\n", name, direction, to)
}

// resumeLine is what kubectl printed when run again with --image and the
// next controller already there.
func resumeLine(next string) string {
	return fmt.Sprintf("Found existing update in progress (%s), resuming.\n", next)
}
