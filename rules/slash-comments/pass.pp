# @summary Hash comments, and a real (empty) regex as an operand.
class demo {
  # Managed by Puppet
  if 'x' =~ // {
    notice('hello')
  }
}
