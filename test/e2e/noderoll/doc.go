// Package noderoll tests rollscope's node drains and kops-style node-group
// rolls (engine/drain, engine/noderoll) against a real control plane: the
// controllers run in a live.Runner as they do beside the console, the real
// API server enforces PodDisruptionBudgets on evictions (429), the real
// disruption controller computes the budgets' status, the real scheduler
// places the evicted pods' replacements, and hollow nodes (live.Nodes) stand
// in for the cloud's machines: when a roll deletes a Node (DeleteNodes), its
// group launches a replacement with the group's current spec.
package noderoll
