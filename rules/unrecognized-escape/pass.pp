$pattern = '^\d+$'
$tab = "a\tb"
# A heredoc keeps the escapes its list does not enable, without a warning.
$banner = @("END"/t)
  C:\new\folder\t
  | END
notice($banner)
