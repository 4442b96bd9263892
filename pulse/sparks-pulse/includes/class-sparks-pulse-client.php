<?php
/**
 * The only call the plugin makes to Sparks: connect this site with a one-time site key.
 *
 * POST {server}/api/v1/public/connect { siteKey, origin } → { data: { sparkId, name, token, scriptUrl, origin, … } }.
 * Sparks adds the site's origin to the Spark's list of allowed sites and answers with the Spark's
 * public widget token. The key works once.
 *
 * @package SparksPulse
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/** Talks to the Sparks server. */
final class Sparks_Pulse_Client {
	/** The origin (scheme://host[:port]) of this WordPress site, as visitors' browsers send it. */
	public static function site_origin() {
		$home   = wp_parse_url( home_url( '/' ) );
		$origin = ( $home['scheme'] ?? 'https' ) . '://' . ( $home['host'] ?? '' );
		if ( ! empty( $home['port'] ) ) {
			$origin .= ':' . (int) $home['port'];
		}
		return $origin;
	}

	/** The server address the owner typed, reduced to scheme://host[:port], or '' when it is not one. */
	public static function normalize_server( $url ) {
		$url   = esc_url_raw( trim( (string) $url ), array( 'http', 'https' ) );
		$parts = $url ? wp_parse_url( $url ) : false;
		if ( ! $parts || empty( $parts['host'] ) || empty( $parts['scheme'] ) ) {
			return '';
		}
		$server = $parts['scheme'] . '://' . $parts['host'];
		if ( ! empty( $parts['port'] ) ) {
			$server .= ':' . (int) $parts['port'];
		}
		return $server;
	}

	/**
	 * Connects. Returns the answer's data, or a WP_Error with a message for the owner.
	 *
	 * @param string $server   The Sparks address (scheme://host[:port]).
	 * @param string $site_key The one-time key shown on the Sparks deploy page.
	 */
	public static function connect( $server, $site_key ) {
		// The owner (manage_options) chooses the address; a self-hosted Sparks may live on a private network.
		$response = wp_remote_post(
			$server . '/api/v1/public/connect',
			array(
				'timeout' => 15,
				'headers' => array(
					'Content-Type'    => 'application/json',
					'Accept'          => 'application/json',
					// Sparks answers its errors in the language of the person connecting.
					'Accept-Language' => 0 === strpos( get_user_locale(), 'es' ) ? 'es' : 'en',
				),
				'body'    => wp_json_encode(
					array(
						'siteKey' => $site_key,
						'origin'  => self::site_origin(),
					)
				),
			)
		);
		if ( is_wp_error( $response ) ) {
			return new WP_Error(
				'sparks_pulse_unreachable',
				/* translators: %s: the Sparks address the owner typed. */
				sprintf( __( 'Could not reach Sparks at %s. Check the address and try again.', 'sparks-pulse' ), $server )
			);
		}
		$status = (int) wp_remote_retrieve_response_code( $response );
		$body   = json_decode( wp_remote_retrieve_body( $response ), true );
		if ( 200 === $status && is_array( $body ) && isset( $body['data']['token'], $body['data']['scriptUrl'] ) ) {
			return $body['data'];
		}
		$code = is_array( $body ) && isset( $body['errors'][0]['code'] ) ? (string) $body['errors'][0]['code'] : '';
		if ( 'SITE_KEY_INVALID' === $code || 404 === $status || ( 400 === $status && 'INVALID_PARAMS' === $code ) ) {
			return new WP_Error( 'sparks_pulse_bad_key', __( 'This site key is not valid: it may have been used already or have expired. Create a new one on the Sparks deploy page.', 'sparks-pulse' ) );
		}
		if ( 'NOT_PUBLISHED' === $code ) {
			return new WP_Error( 'sparks_pulse_not_published', __( 'This Spark is not published. Publish it in the Sparks deploy assistant, then connect again with a new site key.', 'sparks-pulse' ) );
		}
		if ( 429 === $status ) {
			return new WP_Error( 'sparks_pulse_busy', __( 'Too many attempts. Wait a minute and try again.', 'sparks-pulse' ) );
		}
		if ( isset( $body['errors'][0]['message'] ) && is_string( $body['errors'][0]['message'] ) ) {
			// Sparks' own explanation, in the language asked for (printed escaped).
			return new WP_Error( 'sparks_pulse_refused', sanitize_text_field( $body['errors'][0]['message'] ) );
		}
		return new WP_Error(
			'sparks_pulse_failed',
			/* translators: %d: the HTTP status Sparks answered. */
			sprintf( __( 'Sparks could not connect this site (status %d). Try again later.', 'sparks-pulse' ), $status )
		);
	}
}
