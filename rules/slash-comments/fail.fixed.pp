# @summary A Puppet 3 comment.
class demo {
  # Managed by Puppet
# ^ warning[slash-comments]: // comment found
  notice('hello')
}
