$script = @(END)
  #!/bin/sh
  echo hello
  | END
