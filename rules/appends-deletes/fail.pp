$packages = ['git']
$packages += ['vim']
# <- error[appends-deletes]: The operator '+=' is no longer supported. See http://links.puppet.com/remove-plus-equals
