// Package nodesconsole drives the console's node-group roll against a real
// control plane in tmux: hollow nodes of a kops-style group stand in for the
// machines, the console runs the drain and node-roll controllers itself, and
// the test kills and restarts it mid-roll to see the roll taken up again from
// the nodes' rollscope.dev annotations.
package nodesconsole
