package lambdaemu

import (
	"os"
	"os/exec"
	"path/filepath"
)

// Command returns the command that runs a function's bootstrap binary
// against the emulator, with the environment Lambda sets (function name,
// memory, task root, region) plus env.
func (e *Emulator) Command(bootstrap string, env ...string) *exec.Cmd {
	cmd := exec.Command(bootstrap)
	cmd.Dir = filepath.Dir(bootstrap)
	cmd.Env = append(os.Environ(),
		"AWS_LAMBDA_RUNTIME_API="+e.Addr(),
		"AWS_LAMBDA_FUNCTION_NAME=mcpsearch",
		"AWS_LAMBDA_FUNCTION_VERSION=$LATEST",
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=256",
		"AWS_REGION=us-east-1",
		"_HANDLER=bootstrap",
		"LAMBDA_TASK_ROOT="+filepath.Dir(bootstrap),
	)
	cmd.Env = append(cmd.Env, env...)
	return cmd
}
