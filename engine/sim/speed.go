package sim

import "fmt"

// MaxSpeed is the fastest the embedded clock is run for an operator. The
// clock itself holds at any speed (it waits at each timer the runner has
// not fired), but what the console and --plain show is read from a watch
// a few real milliseconds behind the cluster, stamped with the clock when
// read: at 1000× a millisecond is a virtual second, and beyond it lines
// carry states seconds older than their stamps and whole steps of a
// rollout go unseen.
const MaxSpeed = 1000

// CheckSpeed refuses a --speed the console cannot show truly.
func CheckSpeed(speed float64) error {
	switch {
	case !(speed > 0): // NaN too
		return fmt.Errorf("--speed %v must be more than 0 (1 is real time, 10 is ten times faster)", speed)
	case speed > MaxSpeed:
		return fmt.Errorf("--speed %v is above %d, the most at which the console and --plain show what happened when it happened (use rollscope simulate for a whole run at once)", speed, MaxSpeed)
	}
	return nil
}
