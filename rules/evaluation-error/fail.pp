# A variable assigned twice in one scope.
$mode = '0644'
$mode = '0600'
# <- error[evaluation-error]: Cannot reassign variable '$mode'

# $name is set by Puppet.
$name = 'web'
# <- error[evaluation-error]: Cannot reassign built in (or already assigned) variable '$name'
