$packages = ['git']
$all_packages = $packages + ['vim']
