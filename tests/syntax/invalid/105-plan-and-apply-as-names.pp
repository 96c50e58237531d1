# `plan` and `apply` are keywords only in Bolt's tasks mode.
$a = plan
$b = apply
File { apply => }
class plan::x {}
