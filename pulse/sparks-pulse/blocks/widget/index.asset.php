<?php
/**
 * The editor script's dependencies (plain JavaScript, no build step).
 *
 * @package SparksPulse
 */

return array(
	'dependencies' => array( 'wp-blocks', 'wp-element', 'wp-i18n', 'wp-block-editor', 'wp-components' ),
	'version'      => '1.0.0',
);
