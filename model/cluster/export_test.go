package cluster

// Names the external tests reach that the rest of rollscope has no use for.
var (
	Blocker              = blockerFor
	ErrUnknownDeployment = errUnknownDeployment
	ErrUnknownRevision   = errUnknownRevision
)

type BlockerInput = blockerInput

const TimelineLimit = timelineLimit
