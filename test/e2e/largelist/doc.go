// Package largelist tests the live console's first list of a large
// namespace on the real control plane: thousands of pods, a tight
// --request-timeout, and a screen that never says there are no pods while
// they are still being listed.
package largelist
