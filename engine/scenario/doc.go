// Package scenario reads rollscope scenario files: the node groups, image
// behaviour, Kubernetes objects and timed actions that the embedded cluster
// plays on its virtual clock.
//
// Parsing is strict so that a mistake is reported before a run starts rather
// than as a puzzling trace: every error is a single line of the form
// "FILE:LINE: what is wrong (what to do)". A few commented scenarios are built
// in (see Builtins) for demos and as starting points to copy.
package scenario
